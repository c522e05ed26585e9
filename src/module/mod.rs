//! What the test file binds at module level, and what each name means to the extractor: the solution
//! (through a loader, an import, or an alias), a literal constant, a test-file import, a helper, or a
//! value computed by the test file. Fixtures defined in the file are read here too.
//!
//! This file holds the types the rest of the crate reads ([`ModuleScope`], [`Global`],
//! [`PreludeStmt`], [`Fixture`], [`ConftestReplay`]); [`ModuleScope`]'s methods and their helpers
//! are split by concept:
//! - `analyse`: the passes that build a scope for a test file or a conftest, statement by statement
//!   then over the whole file, and the empty scope they start from.
//! - `bindings`: one module-level statement bound (its dispatch, assignments, literal constants,
//!   computed names, statements with a syntax error), with the facts about the whole file it needs.
//! - `imports`: `import` and `from … import` (a star import from the solution included), and the
//!   evaluator's bindings of the modules the file imports.
//! - `solution`: the solution itself: its module names, its loaders, `sol.X` expressions, and the
//!   name the evaluator binds the solution module to.
//! - `fixtures`: fixtures defined in the file, and fixture functions a later statement rebinds.
//! - `pytest_aliases`: pytest's names as the file spells them (`pytest_path`), and module-level
//!   pytest calls (a module skip).
//! - `prelude`: the module statements replayed before every test ([`PreludeStmt`]), and the ones
//!   that become barriers instead.
//! - `effects`: what a module-level statement runs at import (calls, decorators, class creation)
//!   and which calls are harmless, with the classes whose instances run no code.
//! - `changes`: what the file changes after binding it (changed names, `global` declarations), and
//!   the changes to a solution module all tests share.
//! - `walk`: walks of the syntax tree the others share ([`BoundNames`], [`dotted_name`], every
//!   expression a statement evaluates at import).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::names::{self, Replacement};
use crate::rules::Reason;

mod analyse;
mod bindings;
mod changes;
mod effects;
mod fixtures;
mod import_reads;
mod imports;
mod pickle;
mod prelude;
mod pytest_aliases;
mod solution;
mod walk;

pub use import_reads::ImportRead;
pub(crate) use walk::{dotted_name, falsy_literal, literal_attribute_decorator, BoundNames};

/// The words of a drop as the scope keeps them for its readers in other files (flatten's
/// `resolve.rs` and `setup.rs`, `pytest/value.rs`, `incremental.rs`), which still take a `String`:
/// every site here makes a [`Reason`] with its rule, and [`kept`] keeps its words until those
/// readers take a `Reason` (then this becomes `Reason` and `kept` the identity).
pub type ScopeReason = Reason;

/// A reason as the scope keeps it (see [`ScopeReason`]).
pub fn kept(reason: Reason) -> ScopeReason {
    reason
}

/// Words put around a kept reason, its rule unchanged: written once for a [`ScopeReason`] that is
/// still a `String` and for the [`Reason`] it becomes.
pub trait Reword {
    fn reword(self, f: impl FnOnce(String) -> String) -> Self;
}

impl Reword for String {
    fn reword(self, f: impl FnOnce(String) -> String) -> String {
        f(self)
    }
}

impl Reword for Reason {
    fn reword(self, f: impl FnOnce(String) -> String) -> Reason {
        self.map(f)
    }
}

/// What a module-level name means.
#[derive(Clone, Debug)]
pub enum Global<'a> {
    /// The solution module itself (`sol = _load_solution()`, `import solution`).
    SolutionModule,
    /// A name of the solution (`from solution import X as Y`, `Y = _load_solution().X`): rewritten to `X`.
    SolutionName { name: String },
    /// A literal the file never changes; its value with other constants already substituted.
    Constant {
        value: Rc<names::Rendered>,
        source: &'a Expr,
        range: TextRange,
    },
    /// A module the test file imported (not in the solution's namespace). `stdlib`: for an import
    /// of the standard library that nothing rebinds, the expression giving the same object in any
    /// namespace (`names::stdlib_import`, `names::stdlib_from_import`).
    Import {
        module: String,
        line: u32,
        stdlib: Option<String>,
    },
    /// A function or class the test file defines.
    /// `def`: the statement, for a plain function (no decorator).
    Helper {
        kind: &'static str,
        line: u32,
        def: Option<&'a ast::StmtFunctionDef>,
    },
    /// Anything else the file computes: not reproducible in the solution's namespace.
    Computed { line: u32, why: ScopeReason },
}

/// A module-level statement pytest runs once when it imports the test file, before any test, which
/// the fold replays (module-level assignments as walrus bindings, calls for their effect) instead of
/// dropping every test of the file. `inert`: it runs no code that could change state (only calls
/// `harmless_call` accepts), so it is replayed only when an assertion reads what it binds.
#[derive(Clone, Debug)]
pub enum PreludeStmt<'a> {
    Stmt {
        stmt: &'a Stmt,
        inert: bool,
    },
    /// The argument values of a `parametrize` decorator that call code: evaluated whole, once, where
    /// the decorator runs (each case then takes its value from the list by index).
    ParamList {
        list: &'a Expr,
    },
    /// A bare read of the solution module's attribute that pytest makes at import after code the
    /// fold replays (`solution.X` in a parametrize list, a default): read again at its place in the
    /// replay, so that it fails the check exactly where it fails pytest's collection
    /// (`ModuleScope::settle_import_reads`).
    Read {
        expr: &'a Expr,
    },
}

impl PreludeStmt<'_> {
    pub fn range(&self) -> TextRange {
        match self {
            PreludeStmt::Stmt { stmt, .. } => stmt.range(),
            PreludeStmt::ParamList { list } => list.range(),
            PreludeStmt::Read { expr } => expr.range(),
        }
    }
}

/// A fixture defined in this file.
#[derive(Clone, Debug)]
pub enum Fixture<'a> {
    /// `return <expr>` (or `yield <expr>`), function-scoped; `params` are the fixtures it
    /// requests (`getfuncargnames`: its parameters without a default), `defaults` its parameters
    /// with one, which pytest leaves to their default whatever fixture has that name.
    Value {
        expr: &'a Expr,
        params: Vec<String>,
        defaults: Vec<(String, &'a Expr)>,
        range: TextRange,
    },
    /// Returns the solution module.
    SolutionModule,
    /// A conftest's fixture that returns a value (`conftest::apply`): `text` is that value written
    /// for the test's evaluation namespace (`flatten::conftest_fixture`); `params` the fixtures
    /// it requests, `reads` those the value reads; `label` says where it is defined.
    Conftest {
        text: Rc<str>,
        /// `text` with the conftest's mutable constants written out (`flatten::ConftestFixture`).
        alone: Rc<str>,
        /// The conftest's mutable constants the value reads: the reserved name `text` reads it
        /// by, its value, how many times it is read.
        constants: Vec<(String, String, usize)>,
        params: Vec<String>,
        reads: Vec<String>,
        label: String,
    },
    /// Anything the extractor does not reproduce; `why` says what.
    Unsupported { why: ScopeReason },
}

/// A fixture of a conftest.py as far as collection goes (`conftest::apply`,
/// `collect::conftest_fixtures`): what it requests, whether it is autouse, its scope and params.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConftestFixtureDef {
    /// Where it is defined, for messages: "`conftest.py` (line 5)".
    pub label: String,
    /// The fixtures it requests (`getfuncargnames`: parameters without a default).
    pub argnames: Vec<String>,
    pub autouse: bool,
    /// pytest's scope order (session 4 … function 0), or why it is not known.
    pub scope: Result<u8, String>,
    /// With `params=`: each case's part of the node id (`None`: `pytest.HIDDEN_PARAM`) and why
    /// pytest does not run it (a `pytest.param`'s marks); `Err`: why the ids cannot be known, and
    /// how many params there are when that is known.
    pub params: Option<ConftestParams>,
}

/// A conftest fixture's params as collection reads them (see [`ConftestFixtureDef::params`]).
pub type ConftestParams = Result<Vec<(Option<String>, Option<Reason>)>, (String, Option<usize>)>;

pub struct ModuleScope<'a> {
    pub loaders: HashSet<String>,
    pub solution_modules: Vec<String>,
    pub globals: HashMap<String, Global<'a>>,
    pub fixtures: HashMap<String, Fixture<'a>>,
    /// Classes of the file that making an instance of, with no arguments, runs none of its code
    /// (see `inert_classes`), once their `class` statement has run.
    pub inert_classes: HashSet<String>,
    /// Classes of the file whose subclassing runs none of the file's or the solution's code (no
    /// decorator, metaclass or `__init_subclass__`, harmless bases), once defined.
    pub quiet_classes: HashSet<String>,
    /// Module-level names bound to a pytest mark (`slow = pytest.mark.slow`): applying one as a
    /// decorator only marks.
    pub mark_aliases: HashSet<String>,
    /// Autouse fixtures and module-level statements that run before every test and may change state.
    pub global_barriers: Vec<(u32, ScopeReason)>,
    /// `from solution import *`: unknown names may come from the solution.
    pub star_import: bool,
    /// A star import of a module other than the solution (`from helpers import *`): any name may
    /// be the module's, a builtin's name included.
    pub other_star_import: bool,
    /// The file pickles literal values only (`pickle::on_literals_only`): its module-level
    /// `pickle.dumps`/`loads` are spelled out like the rest of the standard library.
    pub pickle_on_literals: bool,
    /// The names of the module's fixture functions (`def` names), whatever name they register.
    pub fixture_functions: HashSet<String>,
    /// Local aliases of pytest: name → canonical dotted prefix (`pytest`, `pytest.mark`, …).
    pub pytest_aliases: HashMap<String, String>,
    /// Statements that change a solution module all tests share (see `shared_solution_changes`).
    pub shared_changes: Vec<TextRange>,
    /// A module-level `pytest.skip(...)`/`pytest.importorskip(...)`: the line and what it is.
    pub module_skip: Option<(u32, ScopeReason)>,
    /// The fixtures of the conftest.py files the test sees, as far as collection goes (the nearest
    /// of each name, outermost conftest first), except names the test file may bind itself.
    pub conftest_defs: Vec<(String, ConftestFixtureDef)>,
    /// Module-level statements replayed, in source order, before every test (see `PreludeStmt`).
    pub prelude: Vec<PreludeStmt<'a>>,
    /// Names only prelude statements bind, and no function of the file changes: inside a fold they
    /// are locals the prelude's walrus bindings give their values.
    pub prelude_names: HashSet<String>,
    /// `from solution import X as Y` at module level, in source order: `(Y, X)`. pytest binds `Y` to
    /// the object `X` held when it imported the file (a snapshot), and fails to collect the whole
    /// file when the solution has no `X` (see `flatten::imports`).
    pub imported_from_solution: Vec<(String, String)>,
    /// What the test file binds from the solution at import, in source order, as the evaluator
    /// replays it (contract version 2): `from solution import X as Y`, `from solution import *`,
    /// and a module-level `Y = sol.X`.
    pub solution_bindings: Vec<(TextRange, crate::model::Binding)>,
    /// Bare reads of the solution module's attributes pytest makes while it imports the file
    /// (`solution.f` in a parametrize list, a default, a test's annotation), in source order: the
    /// evaluator makes each once (an `eval` binding), failing every check when it raises, as
    /// pytest then collects no test of the file.
    pub import_reads: Vec<ImportRead>,
    /// Each of `import_reads`' expressions, until `settle_import_reads` decides where it is read.
    pub(crate) import_read_exprs: Vec<&'a Expr>,
    /// `from solution import *` comes after module-level code that may change the solution: the
    /// names it binds are the ones after that code ran, which the evaluator's bindings (taken
    /// before any replay) are not.
    pub star_after_code: Option<u32>,
    /// `from solution import *` on this line comes after the file's `import pytest`: the candidate
    /// may export a `pytest` of its own, whose marks, fixtures and raises the tests then use.
    pub pytest_before_star: Option<u32>,
    /// The module-level statement being bound (where a binding comes from).
    pub(crate) current: TextRange,
    /// The name the evaluator binds the solution module to, which kept expressions read it
    /// through (`sol.X` is written `<name>.X`): the file's own module-level name for it when that
    /// is its only meaning in the file, else `solution` (or a variant) where the file uses no such
    /// identifier.
    pub module_binding: Rc<str>,
    /// The import-time code of the conftest files that is replayed before every test, outermost
    /// first (see `conftest::apply`).
    pub conftest_replays: Vec<ConftestReplay>,
    /// For a conftest's own scope: pytest imported the solution before it runs the file's code (the
    /// conftest sits in a solution package), as if the file began with `import solution`.
    pub(crate) after_solution: bool,
    /// The constants so far, as replacements (kept as they are found, so each constant is
    /// rendered once against the ones before it).
    pub(crate) constants: HashMap<String, Replacement>,
}

/// A conftest's import-time code, replayed at the start of every fold in a lambda of its own (its
/// names stay in their own scope, as they do in the conftest's module): `text` is that call,
/// `label` the conftest's path, `line` its first replayed line.
#[derive(Clone, Debug)]
pub struct ConftestReplay {
    pub label: String,
    pub text: String,
    pub line: u32,
}
