//! Tests as pytest collects them, expanded into cases: module-level `test*` functions and `test*`
//! methods of `Test*` classes (nested classes too), one case per parametrize combination (marks and
//! parametrized fixtures, in pytest's order), with the node id pytest prints (`crate::pytest::ids`)
//! and what pytest's marks say about running it. A test whose ids cannot be known from the file is
//! not a case: it is listed apart, so nothing is emitted under an id pytest does not print.
//!
//! One concept per submodule:
//! - `file`: the entry point [`collect`], `__test__ = False` at module level, and files pytest
//!   refuses or whose tests run under plugins (a generator test, `pytest_plugins`);
//! - `body`: one module or class body: shadowing, `del`, `__test__` stores (after the `def` or by
//!   a decorator), rebound names, aliases, and each `test*` function's cases;
//! - `classes`: `Test*` classes: inherited tests, constructors, `__test__`, decorated classes,
//!   setup methods and autouse fixtures, [`constructor_test_classes`];
//! - `marks`: the marks a test carries and what each says (skip, xfail, `usefixtures`,
//!   `parametrize`, other decorators, a `pytest.param`'s marks), and what decorators that are not
//!   marks do to `__test__` (nose's `nottest`);
//! - `fixtures`: the file's fixtures (scope, `params`, `autouse`), a test's fixture closure, and a
//!   parametrized fixture's cases and replayed values;
//! - `parametrize`: a test's parametrizations in pytest's order and their combinations, with ids;
//! - `param_sets`: one parametrization's parameter sets, `pytest.param`, `ids=`, and pytest's ids.
//!
//! What the submodules share is here: the [`Collector`], and one parametrization (`Parametrize`)
//! with its parameter sets (`ParamSet`), which `marks`, `fixtures` and `param_sets` read and
//! `parametrize` combines.

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::TextRange;

use crate::case::{kept, Case, CaseReason};
use crate::module::ModuleScope;
use crate::pytest::ids::{self, Id};
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
pub(crate) use file::{collect, conftest_fixtures, Collected};

/// A test pytest collects whose node ids the file alone does not tell: nothing is emitted for it.
pub struct Unlisted<'a> {
    pub func: &'a ast::StmtFunctionDef,
    /// `test_x` or `TestA::test_x`.
    pub name: String,
    pub why: String,
    /// How many cases pytest runs of it, when that is known (else 1).
    pub cases: u32,
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
    /// Whether pytest escapes strings in ids (the configuration's no-escaping key), and why it
    /// fails the file's collection, once an id makes it.
    escaping: ids::Escaping,
    /// How many cases pytest runs of the test `expand` could not list, when that is known.
    unlisted_cases: Option<u32>,
}

/// One parametrization (a mark, or a parametrized fixture), expanded.
struct Parametrize<'a> {
    names: Vec<String>,
    sets: Vec<ParamSet<'a>>,
    line: u32,
    /// Per name: its value goes through a fixture.
    indirect: Vec<bool>,
    /// Per name: a fixture whose value is its param; the value is handed to flatten as is.
    pass_through: Vec<bool>,
    /// Why no case of it can be replayed.
    not_run: Option<Reason>,
    /// Its scope (pytest's order: session 4 … function 0): pytest reorders the tests of the file
    /// around a parametrization wider than function.
    scope: u8,
    /// Why the ids of its cases cannot be known (a conftest fixture's params whose number is
    /// known): the test's cases are counted, not listed.
    unknown_ids: Option<String>,
}

struct ParamSet<'a> {
    /// The source expression of each value, when the file spells them out.
    exprs: Option<Vec<&'a Expr>>,
    range: TextRange,
    id: Id,
    not_run: Option<Reason>,
    /// Values that go through fixtures (by the index of their name): the fixture's value for
    /// them, as Python source that reads only builtins.
    replay: Vec<(usize, String)>,
}

impl<'a> Parametrize<'a> {
    /// A parametrization of direct arguments (not through fixtures).
    fn new(names: Vec<String>, sets: Vec<ParamSet<'a>>, line: u32) -> Self {
        let n = names.len();
        Parametrize {
            names,
            sets,
            line,
            indirect: vec![false; n],
            pass_through: vec![false; n],
            not_run: None,
            scope: 0,
            unknown_ids: None,
        }
    }
}
