//! Tests as pytest collects them, expanded into cases: module-level `test*` functions and `test*`
//! methods of `Test*` classes (nested classes too), one case per parametrize combination (marks and
//! parametrized fixtures, in pytest's order), with the node id pytest prints (`crate::pytest::ids`)
//! and what pytest's marks say about running it. A test whose ids cannot be known from the file is
//! not a case: it is listed apart, so nothing is emitted under an id pytest does not print.
//!
//! One concept per submodule:
//! - `file`: the entry point [`collect`], `__test__ = False` at module level, and files pytest
//!   refuses or whose tests run under plugins (a generator test, `pytest_plugins`);
//! - `body`: one module or class body: shadowing, `del`, `__test__` stores, rebound names,
//!   aliases, and each `test*` function's cases;
//! - `classes`: `Test*` classes: inherited tests, constructors, `__test__`, decorated classes,
//!   setup methods and autouse fixtures, [`constructor_test_classes`];
//! - `marks`: the marks a test carries and what each says (skip, xfail, `usefixtures`,
//!   `parametrize`, other decorators, a `pytest.param`'s marks);
//! - `fixtures`: the file's fixtures (scope, `params`, `autouse`), a test's fixture closure, and a
//!   parametrized fixture's cases and replayed values;
//! - `parametrize`: a test's parametrizations in pytest's order and their combinations, with ids;
//! - `param_sets`: one parametrization's parameter sets, `pytest.param`, `ids=`, and pytest's ids.

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::TextRange;

use crate::module::ModuleScope;
use crate::pytest::ids;
use crate::pytest::value::Evaluator;
use crate::rules::Reason;
use crate::source::SourceMap;

mod body;
mod classes;
mod file;
mod fixtures;
mod marks;
mod param_sets;
mod parametrize;

pub(crate) use classes::constructor_test_classes;
pub(crate) use file::collect;

/// Why a case is not run (or a setup step that stops its replay), as [`Case`] keeps it. Every site
/// makes a [`Reason`] with its rule; `Case::not_run` and `Case::setup` keep only its words until
/// their readers outside collection (flatten's `assertion.rs` and `items::setup`, `incremental.rs`,
/// `module.rs`'s barriers) take a `Reason`: then this becomes `Reason` and [`kept`] the identity.
pub type CaseReason = Reason;

/// A reason as [`Case`] keeps it (see [`CaseReason`]).
pub fn kept(reason: Reason) -> CaseReason {
    reason
}

/// A reason [`Case`] keeps, handed on (its words while [`CaseReason`] is text).
pub fn said(reason: &CaseReason) -> CaseReason {
    reason.clone()
}

/// One test case: one function (one parametrize combination of it).
#[derive(Clone)]
pub struct Case<'a> {
    /// The pytest node id without the file part.
    pub id: String,
    pub func: &'a ast::StmtFunctionDef,
    /// Whether the function is a method of a test class (its first parameter is the instance).
    pub is_method: bool,
    /// Whether it is a `test*` method of a `unittest.TestCase` (`unittest.rs`): its instance is a
    /// plain `unittest.TestCase()`, where that is exact.
    pub unittest: bool,
    /// For a unittest test: the `setUp` its class runs before it, replayed before the body.
    pub unittest_setup: Option<&'a ast::StmtFunctionDef>,
    /// Parameter values from parametrize (or a fixture's `params`), by argument name.
    pub params: Vec<(String, &'a Expr)>,
    /// For each of `params`, the source range of the case it came from.
    pub param_ranges: Vec<TextRange>,
    /// Why pytest will not run this case as a passing check (skip, xfail, not collected…), or why
    /// the extractor cannot replay it.
    pub not_run: Option<CaseReason>,
    /// Whether the function is parametrized (even when its cases could not be expanded).
    pub parametrized: bool,
    /// Fixtures requested by `usefixtures`, and setup methods, that run before the test.
    pub setup: Vec<(u32, CaseReason)>,
    /// Fixtures the enclosing test classes define (name, line): they override the module's.
    pub class_fixtures: Vec<(String, u32)>,
    /// The values of parametrized fixtures the test requests, for this case: Python source that
    /// reads only builtins (the fixture's body run for the case's param), with the range of the
    /// param it came from. Bound where the fixture runs, before the test's body.
    pub fixture_values: Vec<(String, String, TextRange)>,
}

/// A test pytest collects whose node ids the file alone does not tell: nothing is emitted for it.
pub struct Unlisted<'a> {
    pub func: &'a ast::StmtFunctionDef,
    /// `test_x` or `TestA::test_x`.
    pub name: String,
    pub why: String,
}

struct Collector<'s, 'a> {
    scope: &'s ModuleScope<'a>,
    map: &'s SourceMap<'s>,
    eval: Evaluator<'s, 'a>,
    cases: Vec<Case<'a>>,
    unlisted: Vec<Unlisted<'a>>,
    /// Fixtures of the classes around the body being collected (name, line).
    class_fixtures: Vec<(String, u32)>,
    /// Methods a subclass overrides, skipped while its base's body is collected under it.
    exclude: HashSet<String>,
    /// The module's `unittest.TestCase` classes: pytest's unittest plugin collects them
    /// (`unittest::cases`), not its Python class collector.
    unittest_classes: HashSet<TextRange>,
    /// Why pytest may run the file's tests in another order than the file's (a parametrization
    /// wider than function, or one the extractor cannot see): then which test first gets a
    /// parameter object several share is pytest's choice.
    reorder: Option<String>,
    /// How pytest names a long string in an id it generates (its version's rule).
    long_str: ids::LongStrIds,
}
