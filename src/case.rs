//! A test case as pytest collects it (one function, one parametrize combination of it) and why it
//! is not run: what collection (`collect`, `unittest`) makes, and flattening, the configuration's
//! session and re-extraction read.

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::TextRange;

use crate::rules::Reason;

/// Why a case is not run (or a setup step that stops its replay), as [`Case`] keeps it. Every site
/// makes a [`Reason`] with its rule; `Case::not_run` and `Case::setup` keep only its words until
/// their readers outside collection (flatten's `assertion.rs` and `items::setup`, `incremental.rs`,
/// `module/`'s barriers) take a `Reason`: then this becomes `Reason` and [`kept`] the identity.
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
