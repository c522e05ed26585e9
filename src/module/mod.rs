//! What the test file binds at module level, and what each name means to the extractor: the solution
//! (through a loader, an import, or an alias), a literal constant, a test-file import, a helper, or a
//! value computed by the test file. Fixtures defined in the file are read here too.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};

use crate::names::{self, Replacement};
use crate::rules::{Fixtures, ModuleCode, Reason, Rule};
use crate::source::SourceMap;

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

/// A literal constant longer than this (after substituting other constants) is not inlined: chains
/// of constants would grow without bound.
const MAX_CONSTANT_TEXT: usize = 16 * 1024;
/// Nor one nesting deeper than this: inlined into an assert it must stay within CPython's limit.
const MAX_CONSTANT_NESTING: usize = 50;

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
}

impl PreludeStmt<'_> {
    pub fn range(&self) -> TextRange {
        match self {
            PreludeStmt::Stmt { stmt, .. } => stmt.range(),
            PreludeStmt::ParamList { list } => list.range(),
        }
    }
}

/// A fixture defined in this file.
#[derive(Clone, Debug)]
pub enum Fixture<'a> {
    /// `return <expr>` (or `yield <expr>`), function-scoped; its parameters are other fixtures.
    Value {
        expr: &'a Expr,
        params: Vec<String>,
        range: TextRange,
    },
    /// Returns the solution module.
    SolutionModule,
    /// Anything the extractor does not reproduce; `why` says what.
    Unsupported { why: ScopeReason },
}

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
    /// The names of the module's fixture functions (`def` names), whatever name they register.
    pub fixture_functions: HashSet<String>,
    /// Local aliases of pytest: name → canonical dotted prefix (`pytest`, `pytest.mark`, …).
    pub pytest_aliases: HashMap<String, String>,
    /// Statements that change a solution module all tests share (see `shared_solution_changes`).
    pub shared_changes: Vec<TextRange>,
    /// A module-level `pytest.skip(...)`/`pytest.importorskip(...)`: the line and what it is.
    pub module_skip: Option<(u32, ScopeReason)>,
    /// Fixtures from conftest.py files that have `params=`: name → where they come from.
    pub param_fixtures: HashMap<String, String>,
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

/// What binding one statement needs to know about the whole file.
struct FileFacts<'m, 's> {
    map: &'m SourceMap<'s>,
    /// Module-level names the file changes after binding them: name → the first such statement.
    changed: HashMap<String, String>,
    /// How many module-level assignments bind each name.
    assigned: HashMap<String, usize>,
}

impl<'m, 's> FileFacts<'m, 's> {
    fn of(body: &[Stmt], map: &'m SourceMap<'s>) -> Self {
        let changed = changed_names(body)
            .into_iter()
            .map(|(name, range)| {
                let what = format!(
                    "`{}` on line {}",
                    map.snippet(range),
                    map.line(range.start())
                );
                (name, what)
            })
            .collect();
        let mut assigned: HashMap<String, usize> = HashMap::default();
        for stmt in body {
            if let Stmt::Assign(a) = stmt {
                for t in &a.targets {
                    let mut names = Vec::new();
                    names::collect_targets_vec(t, &mut names);
                    for n in names {
                        *assigned.entry(n).or_default() += 1;
                    }
                }
            }
        }
        FileFacts {
            map,
            changed,
            assigned,
        }
    }
}

impl<'a> ModuleScope<'a> {
    /// `errors`: the file's syntax-error ranges; a statement containing one binds only `Computed`
    /// names (what the parser recovered is not what was written).
    /// `after_solution`: pytest imported a solution module before the file's code runs (a
    /// conftest or the test's package imports it), as in [`ModuleScope::analyse_conftest`].
    pub fn analyse(
        body: &'a [Stmt],
        map: &SourceMap,
        solution_modules: &[String],
        errors: &[TextRange],
        after_solution: bool,
    ) -> Self {
        let mut scope = ModuleScope::empty(solution_modules);
        scope.after_solution = after_solution;
        scope.loaders = solution_loaders(body, &scope.solution_modules);
        let file = FileFacts::of(body, map);
        let inert_classes = inert_classes(body);
        for stmt in body {
            match syntax_error_in(stmt, map.source, errors) {
                Some(error) => scope.bind_broken(stmt, map, map.line(error.start())),
                None => scope.bind(stmt, &file),
            }
            // Only once it is defined: a call before the `class` statement raises.
            if let Stmt::ClassDef(c) = stmt {
                if inert_classes.contains(c.name.as_str()) {
                    scope.inert_classes.insert(c.name.to_string());
                }
                if scope.definition_effect(stmt).is_none()
                    && !class_defines(c, "__init_subclass__")
                    && !class_defines(c, "__set_name__")
                {
                    scope.quiet_classes.insert(c.name.to_string());
                }
            }
            if let Stmt::Assign(a) = stmt {
                if let [Expr::Name(n)] = a.targets.as_slice() {
                    if scope
                        .pytest_path(&a.value)
                        .is_some_and(|p| p.starts_with("pytest.mark."))
                    {
                        scope.mark_aliases.insert(n.id.to_string());
                    }
                }
            }
        }
        scope.untrust_global_declared(body, map);
        scope.shared_changes = shared_solution_changes(body, &scope.globals);
        scope.settle_prelude(body, map);
        scope.untrust_bindings_after_code(map);
        scope.module_binding = Rc::from(module_binding_name(body, &scope.globals));
        scope
    }

    /// A binding the file makes after module-level code that the fold replays and that may change
    /// the solution (`solution.configure(...)` then `from solution import MODE`) is a snapshot of
    /// the solution after that code: the evaluator's bindings, made before anything is replayed,
    /// are not; and when that import fails, pytest collects no test of the file. So such a name is
    /// not bound by the evaluator, and every test is dropped, naming the import.
    fn untrust_bindings_after_code(&mut self, map: &SourceMap) {
        let Some(first) = self
            .prelude
            .iter()
            .filter(|p| !matches!(p, PreludeStmt::Stmt { inert: true, .. }))
            .map(|p| p.range())
            .min_by_key(|r| r.start())
        else {
            return;
        };
        let code_line = map.line(first.start());
        let bindings = std::mem::take(&mut self.solution_bindings);
        for (range, binding) in bindings {
            if range.start() < first.start() {
                self.solution_bindings.push((range, binding));
                continue;
            }
            match &binding {
                crate::model::Binding::Attr { name, attr, .. } => {
                    let still = matches!(self.globals.get(name), Some(Global::SolutionName { name: n }) if n == attr);
                    let line = map.line(range.start());
                    if still {
                        let why = kept(ModuleCode::SolutionImportAfterModuleCode.because(format!("is taken from the solution after module-level code on line {code_line} that may change it, and the evaluator binds names before anything is replayed")));
                        self.globals
                            .insert(name.clone(), Global::Computed { line, why });
                    }
                    if !self.global_barriers.iter().any(|(l, _)| *l == line) {
                        self.global_barriers.push((line, kept(ModuleCode::SolutionImportAfterModuleCode.because(format!("line {line} takes names from the solution after module-level code on line {code_line} that may change it: the evaluator binds them before anything is replayed, and pytest collects no test when that import fails")))));
                    }
                }
                crate::model::Binding::Star { .. } => {
                    self.star_after_code = Some(code_line);
                    self.solution_bindings.push((range, binding));
                }
                _ => self.solution_bindings.push((range, binding)),
            }
        }
    }

    /// A conftest's scope; `after_solution`: pytest imported a solution module before the
    /// conftest's code runs (see `Conftest::package`), so its code is replayed as code after the
    /// solution's import is.
    pub fn analyse_conftest(
        body: &'a [Stmt],
        map: &SourceMap,
        solution_modules: &[String],
        after_solution: bool,
    ) -> Self {
        let mut scope = ModuleScope::empty(solution_modules);
        scope.after_solution = after_solution;
        scope.loaders = solution_loaders(body, &scope.solution_modules);
        let file = FileFacts::of(body, map);
        for stmt in body {
            scope.bind(stmt, &file);
        }
        scope.untrust_global_declared(body, map);
        scope.shared_changes = shared_solution_changes(body, &scope.globals);
        scope.settle_prelude(body, map);
        scope
    }

    /// Whether a dotted package is a solution module or inside one.
    pub fn is_solution_package(&self, package: &str) -> bool {
        self.is_solution_module_name(package)
    }

    /// Nothing bound yet; `solution` and `solution_modules` are the solution's module names.
    fn empty(solution_modules: &[String]) -> Self {
        ModuleScope {
            loaders: HashSet::default(),
            solution_modules: std::iter::once("solution".to_string())
                .chain(solution_modules.iter().cloned())
                .collect(),
            globals: HashMap::default(),
            fixtures: HashMap::default(),
            inert_classes: HashSet::default(),
            quiet_classes: HashSet::default(),
            mark_aliases: HashSet::default(),
            global_barriers: Vec::new(),
            star_import: false,
            fixture_functions: HashSet::default(),
            pytest_aliases: HashMap::default(),
            shared_changes: Vec::new(),
            module_skip: None,
            param_fixtures: HashMap::default(),
            prelude: Vec::new(),
            prelude_names: HashSet::default(),
            imported_from_solution: Vec::new(),
            solution_bindings: Vec::new(),
            star_after_code: None,
            pytest_before_star: None,
            current: TextRange::default(),
            module_binding: Rc::from("solution"),
            conftest_replays: Vec::new(),
            after_solution: false,
            constants: HashMap::default(),
        }
    }

    /// A function that declares a module-level import or helper `global` may rebind it.
    fn untrust_global_declared(&mut self, body: &[Stmt], map: &SourceMap) {
        for (name, range) in global_declared(body) {
            if let Some(Global::Import { line, .. } | Global::Helper { line, .. }) =
                self.globals.get(&name)
            {
                let why = kept(ModuleCode::GlobalMayRebind.because(format!(
                    "is bound at module level, but `{}` on line {} may rebind it",
                    map.snippet(range),
                    map.line(range.start())
                )));
                self.globals
                    .insert(name, Global::Computed { line: *line, why });
            }
        }
    }

    fn is_solution_module_name(&self, module: &str) -> bool {
        self.solution_modules
            .iter()
            .any(|m| module == m || module.starts_with(&format!("{m}.")))
    }

    /// Whether the evaluator binds `name` to a module the file imports (`Binding::Import`), with
    /// nothing bound under that name after it.
    pub fn imports_bound(&self, name: &str) -> bool {
        let last = self.solution_bindings.iter().rev().find(|(_, b)| match b {
            crate::model::Binding::Import { name: n, .. }
            | crate::model::Binding::Attr { name: n, .. } => n == name,
            // A star import leaves the modules it keeps as they were (the evaluator checks).
            crate::model::Binding::Star { keep, .. } => !keep.iter().any(|k| k.name == name),
            _ => false,
        });
        matches!(last, Some((_, crate::model::Binding::Import { .. })))
    }

    /// The module the evaluator's bindings name: the one `--solution-module` gives, else
    /// `solution`.
    pub fn solution_module_path(&self) -> &str {
        self.solution_modules
            .iter()
            .find(|m| m.as_str() != "solution")
            .or(self.solution_modules.first())
            .map_or("solution", |m| m.as_str())
    }

    /// Bind a module-level name; a constant also joins the replacements later constants see.
    fn insert_global(&mut self, name: String, global: Global<'a>) {
        if let Global::SolutionName { name: attr } = &global {
            let binding = crate::model::Binding::Attr {
                name: name.clone(),
                module: self.solution_module_path().to_string(),
                attr: attr.clone(),
            };
            self.solution_bindings.push((self.current, binding));
        }
        match &global {
            Global::Constant { value, .. } => {
                self.constants
                    .insert(name.clone(), Replacement::Value(Rc::clone(value)));
            }
            _ => {
                self.constants.remove(&name);
            }
        }
        self.globals.insert(name, global);
    }

    /// pytest finds fixtures among the module's attributes once it is imported (`dir()` order, the
    /// last registration of a name winning): a fixture function whose name a later statement binds
    /// again is gone, or replaced by what that statement binds. Such a name is not a fixture the
    /// extractor can replay.
    fn unregister_rebound_fixtures(&mut self, stmt: &'a Stmt, line: u32) {
        let mut bound = BoundNames::default();
        bound.visit_stmt(stmt);
        for name in bound.names {
            if self.fixture_functions.contains(&name) {
                self.fixtures.insert(
                    name.clone(),
                    Fixture::Unsupported {
                        why: kept(Fixtures::FixtureRebound.because(format!("fixture `{name}` is bound again on line {line}, and pytest takes what the module holds at the end"))),
                    },
                );
            }
        }
    }

    /// A statement with a syntax error: every name it binds is untrusted.
    fn bind_broken(&mut self, stmt: &'a Stmt, map: &SourceMap, error_line: u32) {
        let line = map.line(stmt.range().start());
        let mut bound = BoundNames::default();
        bound.visit_stmt(stmt);
        for name in bound.names {
            if let Stmt::FunctionDef(_) = stmt {
                self.fixtures.insert(
                    name.clone(),
                    Fixture::Unsupported {
                        why: kept(ModuleCode::SyntaxErrorInStatement.because(format!(
                            "`{name}` (line {line}) has a syntax error on line {error_line}"
                        ))),
                    },
                );
            }
            self.globals.insert(
                name,
                Global::Computed {
                    line,
                    why: kept(
                        ModuleCode::SyntaxErrorInStatement
                            .because(format!("has a syntax error on line {error_line}")),
                    ),
                },
            );
        }
    }

    /// One module-level statement: what it runs at import, then what each name it binds means.
    fn bind(&mut self, stmt: &'a Stmt, file: &FileFacts) {
        self.current = stmt.range();
        let line = file.map.line(stmt.range().start());
        self.unregister_rebound_fixtures(stmt, line);
        self.note_module_skip(stmt, line, file.map);
        self.note_import_effect(stmt, line, file.map);
        match stmt {
            Stmt::Import(import) => {
                for alias in &import.names {
                    self.bind_import(alias, line);
                }
            }
            Stmt::ImportFrom(import) => self.bind_import_from(import, line),
            Stmt::FunctionDef(f) => self.bind_function(f, line, file.map),
            Stmt::ClassDef(c) => {
                self.globals.insert(
                    c.name.to_string(),
                    Global::Helper {
                        kind: "class",
                        line,
                        def: None,
                    },
                );
            }
            Stmt::Assign(a) => match a.targets.as_slice() {
                [Expr::Name(target)] => self.bind_assign(stmt, target, &a.value, line, file),
                targets => {
                    let why = ModuleCode::BoundByUnpacking
                        .because("is bound by unpacking at module level");
                    self.bind_computed(targets, line, why)
                }
            },
            Stmt::AnnAssign(a) => {
                if let (Expr::Name(target), Some(value)) = (a.target.as_ref(), &a.value) {
                    let name = target.id.to_string();
                    let global = self.classify_value(file, &name, value, stmt.range(), line);
                    self.insert_global(name, global);
                }
            }
            Stmt::Expr(e) if matches!(e.value.as_ref(), Expr::StringLiteral(_)) => {}
            Stmt::If(_) | Stmt::Try(_) | Stmt::For(_) | Stmt::While(_) | Stmt::With(_) => {
                let mut bound = BoundNames::default();
                bound.visit_stmt(stmt);
                for n in bound.names {
                    self.globals.insert(
                        n,
                        Global::Computed {
                            line,
                            why: kept(
                                ModuleCode::BoundInBlock
                                    .because("is bound inside a block at module level"),
                            ),
                        },
                    );
                }
            }
            _ => {}
        }
    }

    /// The first module-level `pytest.skip(...)`, `pytest.importorskip(...)` or `pytest.xfail(...)`.
    fn note_module_skip(&mut self, stmt: &Stmt, line: u32, map: &SourceMap) {
        if self.module_skip.is_some() {
            return;
        }
        if let Some(call) = self.module_level_call(stmt, |p| {
            matches!(p, "pytest.skip" | "pytest.importorskip" | "pytest.xfail")
        }) {
            self.module_skip = Some((
                line,
                kept(
                    ModuleCode::ModuleLevelSkip
                        .because(format!("`{}` runs at module level", map.snippet(call))),
                ),
            ));
        }
    }

    /// What the statement runs at import: replayed before every test (the prelude), or its
    /// parametrize values replayed, or else a barrier to every test.
    fn note_import_effect(&mut self, stmt: &'a Stmt, line: u32, map: &SourceMap) {
        let effect = self.import_effect(stmt);
        if let Some(inert) = self.replayable(stmt, effect.is_some()) {
            self.prelude.push(PreludeStmt::Stmt { stmt, inert });
        } else if let Some(lists) = effect.and_then(|_| self.replayable_params(stmt)) {
            self.prelude.extend(
                lists
                    .into_iter()
                    .map(|list| PreludeStmt::ParamList { list }),
            );
        } else if let Some(why) = effect {
            self.global_barriers.push((
                line,
                kept(effect_rule(why).because(format!(
                    "`{}` on line {line} {why}{}, and may change state",
                    map.snippet(stmt.range()),
                    at_import(why)
                ))),
            ));
        }
    }

    /// `import M` or `import M as N`.
    fn bind_import(&mut self, alias: &ast::Alias, line: u32) {
        let module = alias.name.to_string();
        if module == "pytest" {
            let bound = alias.asname.as_ref().unwrap_or(&alias.name).to_string();
            self.pytest_aliases.insert(bound, "pytest".into());
        }
        let (bound, full) = match &alias.asname {
            Some(asname) => (asname.to_string(), module.clone()),
            None => {
                let first = module.split('.').next().unwrap_or("").to_string();
                (first.clone(), first)
            }
        };
        let global = if self.is_solution_module_name(&full)
            && (alias.asname.is_none() || self.solution_modules.contains(&module))
        {
            Global::SolutionModule
        } else {
            let mut stdlib = names::stdlib_import(&module, alias.asname.is_some());
            if alias.asname.is_none() {
                // `import os` and `import os.path` bind the same `os`; both ran.
                if let Some(Global::Import {
                    stdlib: earlier, ..
                }) = self.globals.get(&bound)
                {
                    stdlib = names::merge_plain_imports(earlier.as_deref(), stdlib);
                }
            }
            // Not a part of the solution: what the evaluator loads fresh is the solution itself.
            if stdlib.is_none() && is_third_party(&module) && !self.is_solution_module_name(&module)
            {
                let binding = crate::model::Binding::Import {
                    name: bound.clone(),
                    module: module.clone(),
                    attr: None,
                };
                self.solution_bindings.push((self.current, binding));
            }
            Global::Import {
                module: full,
                line,
                stdlib,
            }
        };
        self.globals.insert(bound, global);
    }

    /// `from M import X as Y, ...` (and `from solution import *`).
    fn bind_import_from(&mut self, import: &ast::StmtImportFrom, line: u32) {
        let module = import
            .module
            .as_ref()
            .map(|m| m.to_string())
            .unwrap_or_default();
        let from_solution = import.level == 0 && self.is_solution_module_name(&module);
        for alias in &import.names {
            let name = alias.name.to_string();
            if name == "*" {
                self.star_import |= from_solution;
                if from_solution {
                    let keep = self.untrust_before_star(line);
                    let binding = crate::model::Binding::Star {
                        module: module.clone(),
                        keep,
                    };
                    self.solution_bindings.push((self.current, binding));
                }
                continue;
            }
            let bound = alias.asname.as_ref().unwrap_or(&alias.name).to_string();
            if module == "pytest" {
                self.pytest_aliases
                    .insert(bound.clone(), format!("pytest.{name}"));
            }
            let global = if from_solution {
                self.imported_from_solution
                    .push((bound.clone(), name.clone()));
                let binding = crate::model::Binding::Attr {
                    name: bound.clone(),
                    module: module.clone(),
                    attr: name.clone(),
                };
                self.solution_bindings.push((self.current, binding));
                Global::SolutionName { name }
            } else {
                let stdlib = (import.level == 0)
                    .then(|| names::stdlib_from_import(&module, &name))
                    .flatten();
                if import.level == 0 && is_third_party(&module) {
                    let binding = crate::model::Binding::Import {
                        name: bound.clone(),
                        module: module.clone(),
                        attr: Some(name.clone()),
                    };
                    self.solution_bindings.push((self.current, binding));
                }
                let dotted = if module.is_empty() {
                    name
                } else {
                    format!("{module}.{name}")
                };
                Global::Import {
                    module: dotted,
                    line,
                    stdlib,
                }
            };
            self.globals.insert(bound, global);
        }
    }

    /// `from solution import *` may rebind any name the file bound before it, with whatever the
    /// candidate exports (`math`, `pytest`, a helper): none of them is known after it.
    /// Modules the file imported (the standard library's, pytest) stay what they were: the star
    /// binding lists them, and the evaluator fails every check where the candidate's export replaces
    /// one with another object. The names it returns.
    fn untrust_before_star(&mut self, line: u32) -> Vec<crate::model::Kept> {
        let why = kept(ModuleCode::BoundBeforeStarImport.because(format!("is bound before `from solution import *` on line {line}, which may replace it with whatever the candidate exports")));
        let mut keep = Vec::new();
        let mut names: Vec<String> = self.globals.keys().cloned().collect();
        names.sort();
        for name in names {
            if let Some(kept) = self.kept_module(&name) {
                keep.push(kept);
                continue;
            }
            self.globals.insert(
                name,
                Global::Computed {
                    line,
                    why: why.clone(),
                },
            );
        }
        self.constants.clear();
        let pytest_kept = |alias: &str| keep.iter().any(|k: &crate::model::Kept| k.name == alias);
        if self.pytest_aliases.keys().any(|a| !pytest_kept(a)) {
            self.pytest_before_star.get_or_insert(line);
        }
        for fixture in self.fixtures.values_mut() {
            *fixture = Fixture::Unsupported { why: why.clone() };
        }
        keep
    }

    /// A module-level name bound to a module by `import m [as n]` (the standard library's, or
    /// pytest), as the star binding's `keep` lists it.
    fn kept_module(&self, name: &str) -> Option<crate::model::Kept> {
        let Some(Global::Import { module, stdlib, .. }) = self.globals.get(name) else {
            return None;
        };
        let plain = |text: &str| {
            text.strip_prefix("__import__(\"")
                .and_then(|r| r.strip_suffix("\")"))
                .filter(|m| !m.contains('"'))
                .map(str::to_string)
        };
        // `__import__("m", fromlist=("x",)).x`: `from m import x`.
        let from = |text: &str| {
            let rest = text.strip_prefix("__import__(\"")?;
            let (m, rest) = rest.split_once("\", fromlist=(\"")?;
            let (x, tail) = rest.split_once("\",)).")?;
            (tail == x && !m.contains('"') && !x.contains('"'))
                .then(|| (m.to_string(), x.to_string()))
        };
        match stdlib {
            Some(text) => match (plain(text), from(text)) {
                (Some(m), _) => Some(crate::model::Kept {
                    name: name.to_string(),
                    module: m,
                    attr: None,
                }),
                (None, Some((m, x))) => Some(crate::model::Kept {
                    name: name.to_string(),
                    module: m,
                    attr: Some(x),
                }),
                _ => None,
            },
            None if module == "pytest" => Some(crate::model::Kept {
                name: name.to_string(),
                module: "pytest".into(),
                attr: None,
            }),
            None => None,
        }
    }

    /// `def f(...)`: a helper, and maybe a fixture (an autouse one is a barrier to every test).
    fn bind_function(&mut self, f: &'a ast::StmtFunctionDef, line: u32, map: &SourceMap) {
        let name = f.name.to_string();
        if let Some((fixture, autouse)) = self.fixture_of(f, map) {
            if let Some(autouse) = autouse {
                self.global_barriers.push((line, kept(autouse)));
            }
            // `@pytest.fixture(name="x")`: registered as `x`, and pytest picks among fixtures of
            // one name by attribute order, not by where they are defined; neither name is one the
            // extractor can replay.
            if let Some(alias) = fixture_name_option(f) {
                let why = kept(Fixtures::FixtureRegisteredUnderName.because(format!(
                    "fixture `{}` (line {line}) is registered under `name=`, which pytest resolves among the module's attributes",
                    f.name
                )));
                if let Some(alias) = alias {
                    self.fixtures
                        .insert(alias, Fixture::Unsupported { why: why.clone() });
                }
                self.fixtures
                    .insert(name.clone(), Fixture::Unsupported { why });
            } else {
                self.fixtures.insert(name.clone(), fixture);
            }
            self.fixture_functions.insert(name.clone());
        }
        self.globals.insert(
            name,
            Global::Helper {
                kind: "function",
                line,
                def: f.decorator_list.is_empty().then_some(f),
            },
        );
    }

    /// `name = value`.
    fn bind_assign(
        &mut self,
        stmt: &Stmt,
        target: &ast::ExprName,
        value: &'a Expr,
        line: u32,
        file: &FileFacts,
    ) {
        let name = target.id.to_string();
        if name == "pytestmark" {
            return;
        }
        // `skip_me = pytest.mark.skip(...)` makes `@skip_me` that mark.
        if let Some(path) = self
            .pytest_path(value)
            .filter(|p| p.starts_with("pytest.mark."))
        {
            self.pytest_aliases.insert(name.clone(), path);
        }
        let global = self.classify_value(file, &name, value, stmt.range(), line);
        self.insert_global(name, global);
    }

    /// Every name the targets bind is computed, for the reason `why`.
    fn bind_computed(&mut self, targets: &[Expr], line: u32, why: Reason) {
        for t in targets {
            let mut names = Vec::new();
            names::collect_targets_vec(t, &mut names);
            for n in names {
                self.globals.insert(
                    n,
                    Global::Computed {
                        line,
                        why: kept(why.clone()),
                    },
                );
            }
        }
    }

    /// What `name = value` makes `name` mean.
    fn classify_value(
        &self,
        file: &FileFacts,
        name: &str,
        value: &'a Expr,
        range: TextRange,
        line: u32,
    ) -> Global<'a> {
        if self.is_solution_module_expr(value) {
            return Global::SolutionModule;
        }
        if let Some(attr) = self.solution_attr(value) {
            return Global::SolutionName { name: attr };
        }
        if let Some(change) = file.changed.get(name) {
            return Global::Computed {
                line,
                why: kept(ModuleCode::ConstantChangedLater.because(format!(
                    "is changed by {change}, so its literal value is not what a test sees"
                ))),
            };
        }
        if file.assigned.get(name).copied().unwrap_or(0) > 1 {
            return Global::Computed {
                line,
                why: kept(ModuleCode::AssignedMoreThanOnce.because("is assigned more than once")),
            };
        }
        match self.constant(value, file.map) {
            Some(value_text) => Global::Constant {
                value: Rc::new(value_text),
                source: value,
                range,
            },
            None => Global::Computed {
                line,
                why: kept(ModuleCode::ComputedByTestFile.because("is computed by the test file")),
            },
        }
    }

    /// A literal value (reading only earlier constants) written out with those constants
    /// substituted, unless it grows too long or too deep to inline.
    fn constant(&self, value: &Expr, src: &SourceMap) -> Option<names::Rendered> {
        let is_const = |n: &str| matches!(self.globals.get(n), Some(Global::Constant { .. }));
        if !names::is_literal_value(value, &is_const) {
            return None;
        }
        names::render(value, &self.constants, src).ok().filter(|r| {
            r.text.len() <= MAX_CONSTANT_TEXT
                && names::bracket_depth(&r.text) <= MAX_CONSTANT_NESTING
        })
    }

    /// `_load_solution()` or a name bound to the solution module.
    pub fn is_solution_module_expr(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Call(call) if self.imports_solution_by_name(call) => true,
            Expr::Call(call) => {
                call.arguments.args.is_empty()
                    && matches!(call.func.as_ref(), Expr::Name(n) if self.loaders.contains(n.id.as_str()))
            }
            Expr::Name(n) => matches!(
                self.globals.get(n.id.as_str()),
                Some(Global::SolutionModule)
            ),
            _ => false,
        }
    }

    /// `importlib.import_module("solution")` with the file's own `import importlib`: the module
    /// `import solution` gives.
    fn imports_solution_by_name(&self, call: &ast::ExprCall) -> bool {
        let Expr::Attribute(a) = call.func.as_ref() else {
            return false;
        };
        let importlib = matches!(a.value.as_ref(), Expr::Name(n)
            if n.id == "importlib"
                && matches!(self.globals.get("importlib"), Some(Global::Import { module, .. }) if module == "importlib"));
        importlib
            && a.attr.as_str() == "import_module"
            && call.arguments.keywords.is_empty()
            && matches!(&call.arguments.args[..], [Expr::StringLiteral(s)]
                if self.solution_modules.iter().any(|m| s.value.to_str() == m.as_str()))
    }

    /// `_load_solution().X` or `sol.X` → `X`.
    pub fn solution_attr(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Attribute(a) if self.is_solution_module_expr(&a.value) => {
                Some(a.attr.to_string())
            }
            _ => None,
        }
    }

    /// The first call in a module-level statement (outside function bodies) whose pytest path
    /// satisfies `pred`.
    fn module_level_call(&self, stmt: &Stmt, pred: impl Fn(&str) -> bool) -> Option<TextRange> {
        let mut found = None;
        for_import_time_exprs(stmt, &mut |e| {
            if found.is_none() {
                if let Expr::Call(c) = e {
                    if self.pytest_path(e).is_some_and(|p| pred(&p)) {
                        found = Some(c.range());
                    }
                }
            }
        });
        found
    }

    /// Whether a module-level statement is replayed before every test (`Some(inert)`): an assignment,
    /// a store, an augmented assignment, `del obj[k]`/`del obj.a` or an expression statement, when it
    /// runs code at import (`effect`) or binds a computed name. Aliases of the solution, pytest's
    /// own names and `pytestmark` are not replayed: the namespace already has them, or needs none.
    fn replayable(&self, stmt: &Stmt, effect: bool) -> Option<bool> {
        let value = match stmt {
            Stmt::Assign(a) => {
                let simple = match a.targets.as_slice() {
                    [Expr::Attribute(_) | Expr::Subscript(_)] => true,
                    targets => targets.iter().all(|t| match t {
                        Expr::Name(n) => n.id.as_str() != "pytestmark",
                        Expr::Tuple(_) | Expr::List(_) => true,
                        _ => false,
                    }),
                };
                if !simple {
                    return None;
                }
                &a.value
            }
            Stmt::AnnAssign(a) => match (a.target.as_ref(), a.value.as_deref()) {
                (Expr::Name(_), Some(v)) => v,
                _ => return None,
            },
            // `X += …` on a name the evaluator binds (an import): replayed as `X := …` inside the
            // check's own scope it would make `X` that scope's local, unbound where it is read.
            Stmt::AugAssign(a)
                if matches!(a.target.as_ref(), Expr::Name(n) if matches!(
                    self.globals.get(n.id.as_str()),
                    Some(Global::SolutionName { .. } | Global::SolutionModule | Global::Import { .. })
                )) =>
            {
                return None;
            }
            Stmt::AugAssign(a) => &a.value,
            Stmt::Expr(e) if effect => &e.value,
            // A module-level assert that fails stops pytest from collecting the file: every test
            // fails. Replayed as a check at the start of each fold (never inert: it can fail), it
            // fails each expression too.
            Stmt::Assert(_) => {
                let mut pytest = false;
                for_import_time_exprs(stmt, &mut |e| {
                    pytest |= matches!(e, Expr::Call(_)) && self.pytest_path(e).is_some();
                });
                return (!pytest).then_some(false);
            }
            Stmt::Delete(d)
                if effect
                    && matches!(
                        d.targets.as_slice(),
                        [Expr::Attribute(_) | Expr::Subscript(_)]
                    ) =>
            {
                return Some(false);
            }
            Stmt::If(i) => return self.replayable_if(i).then_some(!effect),
            _ => return None,
        };
        if self.is_solution_module_expr(value)
            || self.solution_attr(value).is_some()
            || self.pytest_path(value).is_some()
        {
            return None;
        }
        // pytest's own calls (`pytest.mark.skip(...)(test_x)`, `pytest.param(...)`): the namespace
        // has no pytest. An assignment expression binds a module global, which replayed inside the
        // fold's lambda would be a local of the lambda instead (its reads before the binding would
        // raise UnboundLocalError there).
        let mut pytest = false;
        let mut walrus = false;
        for_import_time_exprs(stmt, &mut |e| {
            pytest |= matches!(e, Expr::Call(_)) && self.pytest_path(e).is_some();
            walrus |= matches!(e, Expr::Named(_));
        });
        if pytest || walrus {
            return None;
        }
        Some(!effect)
    }

    /// Whether a module-level `if`/`elif`/`else` is replayed as a conditional expression
    /// (`flatten::items::Piece::Cond`): not `if __name__ == "__main__":`; conditions that bind
    /// nothing and call none of pytest's code (the namespace has no pytest); branches of statements
    /// the prelude replays itself (asserts excepted: a failing one would end the fold's segment,
    /// not the branch), or `pass`, or such an `if`; and every branch (a missing `else` is an empty
    /// one) binding the same names. At module level a name one branch leaves unbound is read from
    /// the builtins, or fails with `NameError`; inside the fold's lambda it would be an unbound
    /// local, so a name bound on one path only is refused.
    fn replayable_if(&self, i: &ast::StmtIf) -> bool {
        if is_main_guard(&i.test) {
            return false;
        }
        let mut clauses: Vec<(Option<&Expr>, &[Stmt])> = vec![(Some(i.test.as_ref()), &i.body)];
        clauses.extend(
            i.elif_else_clauses
                .iter()
                .map(|c| (c.test.as_ref(), c.body.as_slice())),
        );
        let has_else = clauses.last().is_some_and(|(test, _)| test.is_none());
        let mut bound_sets: Vec<Vec<String>> = Vec::new();
        for (test, body) in clauses {
            if let Some(test) = test {
                let mut refused = !names::Facts::of(test).walrus.is_empty()
                    || self.pytest_path(test).is_some()
                    || self.is_solution_module_expr(test);
                EveryExpr(&mut |e: &Expr| {
                    refused |= matches!(e, Expr::Call(_)) && self.pytest_path(e).is_some();
                })
                .visit_expr(test);
                if refused {
                    return false;
                }
            }
            for s in body {
                // A walrus that may not run would leave its name unbound on that path too.
                let mut walrus = false;
                for_import_time_exprs(s, &mut |e| walrus |= matches!(e, Expr::Named(_)));
                let ok = match s {
                    _ if walrus => false,
                    Stmt::Pass(_) => true,
                    Stmt::Assert(_) => false,
                    Stmt::If(inner) => self.replayable_if(inner),
                    other => self
                        .replayable(other, self.import_effect(other).is_some())
                        .is_some(),
                };
                if !ok {
                    return false;
                }
            }
            let mut bound = BoundNames::default();
            for s in body {
                bound.visit_stmt(s);
            }
            let mut names = bound.names;
            names.sort();
            names.dedup();
            bound_sets.push(names);
        }
        if !has_else {
            bound_sets.push(Vec::new());
        }
        bound_sets.windows(2).all(|w| w[0] == w[1])
    }

    /// The argument lists of `parametrize` decorators (of a module-level test function, or of a test
    /// class and its methods) that call code, when they are all the statement runs at import that is
    /// not harmless: each is replayed whole, in order. Lists with `pytest.param(...)` entries are not
    /// (the namespace has no pytest).
    fn replayable_params(&self, stmt: &'a Stmt) -> Option<Vec<&'a Expr>> {
        if let Stmt::FunctionDef(f) = stmt {
            if is_xunit_module_setup(f.name.as_str()) {
                return None;
            }
        }
        let mut decorators = Vec::new();
        decorator_lists(stmt, &mut decorators);
        let lists: Vec<&'a Expr> = decorators
            .into_iter()
            .flatten()
            .filter_map(|dec| self.parametrize_values(dec))
            .filter(|values| self.replayable_param_list(values))
            .collect();
        let other = self.calls_code_outside(stmt, &lists);
        (!other && !lists.is_empty()).then_some(lists)
    }

    /// The argument values of `@pytest.mark.parametrize(names, values)`, when a list or tuple.
    fn parametrize_values<'e>(&self, dec: &'e ast::Decorator) -> Option<&'e Expr> {
        let Expr::Call(call) = &dec.expression else {
            return None;
        };
        if self.pytest_path(&dec.expression).as_deref() != Some("pytest.mark.parametrize") {
            return None;
        }
        let values = call.arguments.args.get(1).or_else(|| {
            call.arguments
                .keywords
                .iter()
                .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "argvalues"))
                .map(|k| &k.value)
        })?;
        matches!(values, Expr::List(_) | Expr::Tuple(_)).then_some(values)
    }

    /// Whether a parametrize list is replayed whole: it calls code (or there would be no need), none
    /// of pytest's (the namespace has no pytest), and has no starred entry.
    fn replayable_param_list(&self, values: &Expr) -> bool {
        let elts = match values {
            Expr::List(l) => &l.elts,
            Expr::Tuple(t) => &t.elts,
            _ => return false,
        };
        let mut calls_code = false;
        let mut uses_pytest = false;
        let mut visit = |e: &Expr| {
            if let Expr::Call(_) = e {
                uses_pytest |= self.pytest_path(e).is_some();
                calls_code |= !self.harmless_call(e);
            }
        };
        let mut replayable = true;
        for e in elts {
            match e {
                Expr::Call(c) if self.pytest_path(e).as_deref() == Some("pytest.param") => {
                    replayable &= self.replayable_param_call(c);
                    for a in c.arguments.args.iter() {
                        EveryExpr(&mut visit).visit_expr(a);
                    }
                }
                Expr::Starred(_) => replayable = false,
                other => EveryExpr(&mut visit).visit_expr(other),
            }
        }
        calls_code && !uses_pytest && replayable
    }

    /// `pytest.param(values…, id=…, marks=…)`: its values are replayed (as a tuple), when none is
    /// starred; its id and marks only if they run no user code.
    fn replayable_param_call(&self, c: &ast::ExprCall) -> bool {
        let runs_user_code = |value: &Expr| {
            let mut found = false;
            EveryExpr(&mut |x: &Expr| {
                found |= matches!(x, Expr::Call(_)) && !self.harmless_call(x);
            })
            .visit_expr(value);
            found
        };
        c.arguments
            .args
            .iter()
            .all(|a| !matches!(a, Expr::Starred(_)))
            && c.arguments
                .keywords
                .iter()
                .all(|k| k.arg.is_some() && !runs_user_code(&k.value))
    }

    /// Whether the statement makes a call at import that is neither harmless nor inside `lists`.
    fn calls_code_outside(&self, stmt: &Stmt, lists: &[&Expr]) -> bool {
        let mut other = false;
        for_import_time_exprs(stmt, &mut |e| {
            if let Expr::Call(_) = e {
                if !self.harmless_call(e)
                    && !lists.iter().any(|l| l.range().contains_range(e.range()))
                {
                    other = true;
                }
            }
        });
        other
    }

    /// After the whole file is bound: a replayed statement that changes state every test shares (a
    /// store into the solution module, a process-wide setting) becomes a barrier again; an inert one
    /// that binds no computed name is left out; and `prelude_names` is what only the prelude binds
    /// and no other statement (a function body, a block) changes or rebinds.
    fn settle_prelude(&mut self, body: &'a [Stmt], map: &SourceMap) {
        let prelude = std::mem::take(&mut self.prelude);
        let solution_import = self.solution_import_start(body);
        let kept: Vec<PreludeStmt<'a>> = prelude
            .into_iter()
            .filter(|entry| self.stays_in_prelude(entry, solution_import, map))
            .collect();
        self.prelude = kept;
        self.prelude_names = self.names_only_the_prelude_binds(body);
        self.untrust_shared_iterators(body, map);
        // Barriers in the order the file runs them (the first one is the one a reason names).
        self.global_barriers.sort_by_key(|(line, _)| *line);
    }

    /// Where the file first imports the solution (or calls a loader at module level).
    ///
    /// The bench loop loads the solution before it evaluates anything, as pytest does when the
    /// file imports it at module level; code that runs before that import (or before a loader
    /// call in a test) could change what the solution does at import, so it is not replayed.
    fn solution_import_start(&self, body: &[Stmt]) -> Option<TextSize> {
        if self.after_solution {
            return Some(TextSize::new(0));
        }
        body.iter().find_map(|stmt| {
            let imports = match stmt {
                Stmt::Import(i) => i
                    .names
                    .iter()
                    .any(|a| self.is_solution_module_name(a.name.as_str())),
                Stmt::ImportFrom(i) => {
                    i.level == 0
                        && i.module
                            .as_ref()
                            .is_some_and(|m| self.is_solution_module_name(m.as_str()))
                }
                Stmt::Assign(a) => {
                    self.is_solution_module_expr(&a.value) || self.solution_attr(&a.value).is_some()
                }
                _ => false,
            };
            imports.then(|| stmt.range().start())
        })
    }

    /// Whether a prelude entry is still replayed. One that runs code before the solution is
    /// imported, or changes state every test shares, becomes a barrier to every test instead; an
    /// inert one that binds no computed name is not needed.
    fn stays_in_prelude(
        &mut self,
        entry: &PreludeStmt<'a>,
        solution_import: Option<TextSize>,
        map: &SourceMap,
    ) -> bool {
        let inert_entry = matches!(entry, PreludeStmt::Stmt { inert: true, .. });
        if !inert_entry && solution_import.is_none_or(|at| entry.range().start() < at) {
            self.barrier_before_solution(entry, map);
            return false;
        }
        let PreludeStmt::Stmt { stmt, inert } = entry else {
            return true;
        };
        if self
            .shared_changes
            .iter()
            .any(|c| stmt.range().contains_range(*c))
        {
            let line = map.line(stmt.range().start());
            self.global_barriers.push((line, {
                let why = self
                    .import_effect(stmt)
                    .unwrap_or("changes state every test shares");
                kept(ModuleCode::ChangesSharedState.because(format!(
                    "`{}` on line {line} {why}{}, and may change state",
                    map.snippet(stmt.range()),
                    at_import(why)
                )))
            }));
            return false;
        }
        !*inert || self.binds_computed(stmt)
    }

    /// A prelude entry that runs code before the solution is imported: a barrier to every test.
    fn barrier_before_solution(&mut self, entry: &PreludeStmt, map: &SourceMap) {
        let line = map.line(entry.range().start());
        let what = match entry {
            PreludeStmt::Stmt { stmt, .. } => format!(
                "`{}` on line {line} {}",
                map.snippet(stmt.range()),
                self.import_effect(stmt).unwrap_or("calls code")
            ),
            PreludeStmt::ParamList { list } => format!(
                "the parametrize values `{}` on line {line} call code",
                map.snippet(list.range())
            ),
        };
        self.global_barriers.push((
            line,
            kept(ModuleCode::CodeBeforeSolutionImport.because(format!("{what} when the test file is imported, before the solution is, and may change state"))),
        ));
    }

    /// Whether a statement binds a name the file computes.
    fn binds_computed(&self, stmt: &Stmt) -> bool {
        let mut bound = BoundNames::default();
        bound.visit_stmt(stmt);
        bound
            .names
            .iter()
            .any(|n| matches!(self.globals.get(n.as_str()), Some(Global::Computed { .. })))
    }

    /// Names only the replayed statements bind, and no other statement changes or rebinds.
    /// A module-level iterator (`PAIRS = zip(…)`, a generator expression, `iter(…)`) that several
    /// functions of the file read is one object they share: the first test to iterate it consumes
    /// it, and the next sees it empty. Replayed fresh for each test it would not be; what reads it
    /// is dropped (the file visibly shares state).
    fn untrust_shared_iterators(&mut self, body: &'a [Stmt], map: &SourceMap) {
        const ITERATOR_MAKERS: &[&str] = &["zip", "map", "filter", "iter", "reversed", "enumerate"];
        for stmt in body {
            let Stmt::Assign(a) = stmt else { continue };
            let [Expr::Name(target)] = a.targets.as_slice() else {
                continue;
            };
            let name = target.id.as_str();
            if !self.prelude_names.contains(name) {
                continue;
            }
            let iterator = match a.value.as_ref() {
                Expr::Generator(_) => true,
                Expr::Call(c) => matches!(c.func.as_ref(), Expr::Name(f)
                    if ITERATOR_MAKERS.contains(&f.id.as_str()) && !self.globals.contains_key(f.id.as_str())),
                _ => false,
            };
            let readers = body
                .iter()
                .filter(|s| match s {
                    Stmt::FunctionDef(f) => reads_name(f, name),
                    Stmt::ClassDef(c) => c
                        .body
                        .iter()
                        .any(|s| matches!(s, Stmt::FunctionDef(f) if reads_name(f, name))),
                    _ => false,
                })
                .count();
            if iterator && readers > 1 {
                self.prelude_names.remove(name);
                let line = map.line(stmt.range().start());
                self.globals.insert(
                    name.to_string(),
                    Global::Computed {
                        line,
                        why: kept(ModuleCode::SharedIterator.because("is one iterator the file's tests share: the first to iterate it consumes it, and the next sees it empty")),
                    },
                );
            }
        }
    }

    fn names_only_the_prelude_binds(&self, body: &[Stmt]) -> HashSet<String> {
        let replayed: HashSet<TextRange> = self
            .prelude
            .iter()
            .filter_map(|p| match p {
                PreludeStmt::Stmt { stmt, .. } => Some(stmt.range()),
                PreludeStmt::ParamList { .. } => None,
            })
            .collect();
        let mut names: HashSet<String> = HashSet::default();
        let mut elsewhere: HashSet<String> = HashSet::default();
        let mut changed: HashSet<String> = HashSet::default();
        // `from solution import *` may rebind what was bound before it with the candidate's own.
        let star_at = body.iter().find_map(|s| match s {
            Stmt::ImportFrom(i)
                if i.level == 0
                    && i.names.iter().any(|a| a.name.as_str() == "*")
                    && i.module
                        .as_ref()
                        .is_some_and(|m| self.is_solution_module_name(m.as_str())) =>
            {
                Some(s.range().start())
            }
            _ => None,
        });
        for stmt in body {
            let mut bound = BoundNames::default();
            bound.visit_stmt(stmt);
            let before_star = star_at.is_some_and(|at| stmt.range().start() < at);
            if replayed.contains(&stmt.range()) && !before_star {
                names.extend(bound.names);
            } else {
                elsewhere.extend(bound.names);
                changed.extend(changed_outside_locals(stmt));
            }
        }
        names.retain(|n| !elsewhere.contains(n) && !changed.contains(n));
        names
    }

    /// What a module-level statement does at import that may change state the tests read: a call
    /// that is not pytest's or known harmless, a store through an attribute or item, an augmented
    /// assignment or `del`, and xunit setup functions, which pytest runs before each test.
    fn import_effect(&self, stmt: &Stmt) -> Option<&'static str> {
        match stmt {
            Stmt::Import(_) | Stmt::ImportFrom(_) | Stmt::Pass(_) => return None,
            // `if __name__ == "__main__":` never runs when pytest imports the file.
            Stmt::If(i) if is_main_guard(&i.test) => return None,
            // What any branch does, or a call in a condition.
            Stmt::If(i) => {
                let branches = i
                    .body
                    .iter()
                    .chain(i.elif_else_clauses.iter().flat_map(|c| c.body.iter()));
                if let Some(why) = branches.filter_map(|s| self.import_effect(s)).next() {
                    return Some(why);
                }
                let mut calls = false;
                let tests = std::iter::once(i.test.as_ref())
                    .chain(i.elif_else_clauses.iter().filter_map(|c| c.test.as_ref()));
                for test in tests {
                    if self.reads_solution(test) {
                        return Some(OPERATES_ON_SOLUTION);
                    }
                    EveryExpr(&mut |e: &Expr| {
                        calls |= matches!(e, Expr::Call(_)) && !self.harmless_call(e);
                    })
                    .visit_expr(test);
                }
                return calls.then_some("calls code");
            }
            Stmt::FunctionDef(f) if is_xunit_module_setup(f.name.as_str()) => {
                return Some(XUNIT_SETUP);
            }
            // `test_helper.__test__ = False`: only pytest's collection reads it, on a function or
            // class of the file.
            Stmt::Assign(a)
                if matches!(a.targets.as_slice(), [Expr::Attribute(t)]
                    if t.attr.as_str() == "__test__"
                        && matches!(t.value.as_ref(), Expr::Name(n)
                            if matches!(self.globals.get(n.id.as_str()), Some(Global::Helper { .. }))))
                    && matches!(
                        a.value.as_ref(),
                        Expr::BooleanLiteral(_) | Expr::NoneLiteral(_) | Expr::NumberLiteral(_)
                    ) =>
            {
                return None;
            }
            Stmt::Assign(a)
                if a.targets
                    .iter()
                    .any(|t| !matches!(t, Expr::Name(_) | Expr::Tuple(_) | Expr::List(_))) =>
            {
                return Some("stores into an object");
            }
            Stmt::AugAssign(_) | Stmt::Delete(_) | Stmt::Global(_) => {
                return Some("rebinds or changes a value")
            }
            _ => {}
        }
        if let Stmt::Assign(a) = stmt {
            if self.is_solution_module_expr(&a.value) || self.solution_attr(&a.value).is_some() {
                return None;
            }
        }
        // `solution.__version__` alone: a read that may raise, for its effect.
        if let Stmt::Expr(e) = stmt {
            if self.reads_solution(&e.value) {
                return Some(OPERATES_ON_SOLUTION);
            }
        }
        // `LOW, HIGH = solution.BOUNDS` unpacks the candidate's object, which may not fit.
        if let Stmt::Assign(a) = stmt {
            if a.targets.iter().any(|t| !matches!(t, Expr::Name(_)))
                && self.reads_solution(&a.value)
            {
                return Some(OPERATES_ON_SOLUTION);
            }
        }
        let mut effect = None;
        for_import_time_exprs(stmt, &mut |e| {
            if effect.is_none() {
                if let Expr::Call(_) = e {
                    // pytest's own calls (`parametrize`, `param`) only hand values on: their
                    // arguments are judged as expressions.
                    if !self.harmless_call(e)
                        || (self.pytest_path(e).is_none() && self.reads_solution(e))
                    {
                        effect = Some("calls code");
                    }
                } else if self.operates_on_solution(e) {
                    effect = Some(OPERATES_ON_SOLUTION);
                }
            }
        });
        effect.or_else(|| self.definition_effect(stmt))
    }

    /// Whether an expression reads the solution (a name it binds, or the module itself).
    fn reads_solution(&self, expr: &Expr) -> bool {
        ruff_python_ast::helpers::any_over_expr(expr, |e: &Expr| {
            matches!(e, Expr::Name(n) if matches!(
                self.globals.get(n.id.as_str()),
                Some(Global::SolutionName { .. } | Global::SolutionModule)
            ))
        })
    }

    /// An operation on a value of the solution, which runs the candidate's methods or may raise
    /// (`solution.PRIMES[0]`, `solution.P + 1`, `f"{solution.NAME}"`, a display that hashes
    /// its keys); a plain read (`solution.X`) is not one.
    fn operates_on_solution(&self, expr: &Expr) -> bool {
        let operand = |e: &Expr| !matches!(e, Expr::Lambda(_)) && self.reads_solution(e);
        match expr {
            Expr::Subscript(s) => operand(&s.value) || operand(&s.slice),
            Expr::BinOp(b) => operand(&b.left) || operand(&b.right),
            Expr::UnaryOp(u) => operand(&u.operand),
            Expr::Compare(c) => operand(&c.left) || c.comparators.iter().any(operand),
            Expr::BoolOp(b) => b.values.iter().any(operand),
            Expr::If(i) => operand(&i.test),
            Expr::FString(_) | Expr::Set(_) | Expr::Starred(_) => operand(expr),
            Expr::Dict(d) => d.items.iter().any(|i| i.key.as_ref().is_some_and(operand)),
            // Iterating a value of the solution (`[(w,) for w in solution.WORDS]`) is taken as
            // a read, as `from solution import WORDS` is: a stated limit (docs/contract.md).
            _ => false,
        }
    }

    /// What a `def` or `class` statement runs besides its calls (which `harmless_call` judges):
    /// a decorator applied (`@formatter` calls `formatter`), and for a class its bases' hooks (a
    /// base's `__init_subclass__` or metaclass runs when the class is created, an enum's members
    /// are made by the class's own `__init__`), in the class body too.
    fn definition_effect(&self, stmt: &Stmt) -> Option<&'static str> {
        match stmt {
            Stmt::FunctionDef(f) => f
                .decorator_list
                .iter()
                .any(|d| !self.harmless_decorator(&d.expression))
                .then_some(DECORATED),
            Stmt::ClassDef(c) => {
                if c.decorator_list
                    .iter()
                    .any(|d| !self.harmless_decorator(&d.expression))
                {
                    return Some(DECORATED);
                }
                if let Some(args) = c.arguments.as_deref() {
                    if args.keywords.iter().any(|k| {
                        !(k.arg.as_ref().is_some_and(|a| a.as_str() == "metaclass")
                            && self.stdlib_path(&k.value).as_deref() == Some("abc.ABCMeta"))
                    }) {
                        return Some("creates a class with a metaclass or class arguments, which may run code");
                    }
                    for base in args.args.iter() {
                        match self.base_kind(base) {
                            BaseKind::Quiet => {}
                            BaseKind::Enum
                                if !["__init__", "__new__", "_generate_next_value_"]
                                    .iter()
                                    .any(|m| class_defines(c, m)) => {}
                            _ => return Some(
                                "creates a class whose base may run code when it is subclassed (`__init_subclass__`, a metaclass)",
                            ),
                        }
                    }
                }
                // `title = TITLE` in a class body: creating the class calls the value's
                // `__set_name__`, if it has one (a descriptor of the solution).
                let is_const =
                    |n: &str| matches!(self.globals.get(n), Some(Global::Constant { .. }));
                let set_name = c.body.iter().any(|s| {
                    let value = match s {
                        Stmt::Assign(a) => Some(a.value.as_ref()),
                        Stmt::AnnAssign(a) => a.value.as_deref(),
                        _ => None,
                    };
                    fn plain(scope: &ModuleScope, v: &Expr, is_const: &dyn Fn(&str) -> bool) -> bool {
                        names::is_literal_value(v, is_const)
                            || scope.pytest_path(v).is_some()
                            || (matches!(v, Expr::Call(_)) && scope.harmless_call(v))
                            // `dict.__init__`, `os.sep`: a builtin's or the standard library's.
                            || (matches!(v, Expr::Attribute(_)) && dotted_name(v).is_some_and(|d| {
                                let first = d.split('.').next().unwrap_or("");
                                !scope.globals.contains_key(first) || scope.stdlib_path(v).is_some()
                            }))
                            || matches!(v, Expr::Lambda(_))
                            || matches!(v, Expr::Name(n) if matches!(
                                scope.globals.get(n.id.as_str()),
                                Some(Global::Helper { .. })
                            ))
                            || matches!(v, Expr::List(l) if l.elts.iter().all(|e| plain(scope, e, is_const)))
                            || matches!(v, Expr::Tuple(t) if t.elts.iter().all(|e| plain(scope, e, is_const)))
                    }
                    value.is_some_and(|v| !plain(self, v, &is_const))
                });
                if set_name {
                    return Some("creates a class whose attributes' `__set_name__` may run code");
                }
                c.body.iter().find_map(|s| self.definition_effect(s))
            }
            _ => None,
        }
    }

    /// The standard-library dotted name an expression reads through the file's imports
    /// (`abc.ABCMeta` for `ABCMeta` after `from abc import ABCMeta`).
    fn stdlib_path(&self, expr: &Expr) -> Option<String> {
        let dotted = dotted_name(expr)?;
        let first = dotted.split('.').next().unwrap_or("");
        match self.globals.get(first) {
            Some(Global::Import { module, .. }) if crate::flatten::is_stdlib(module) => {
                Some(format!("{module}{}", &dotted[first.len()..]))
            }
            _ => None,
        }
    }

    /// A decorator whose application runs none of the file's or the solution's code: pytest's
    /// (marks, `fixture`), a name bound to a mark, a call (judged as a call), builtins and the
    /// standard library's that only wrap or mark.
    fn harmless_decorator(&self, expr: &Expr) -> bool {
        if matches!(expr, Expr::Call(_)) || self.pytest_path(expr).is_some() {
            return true;
        }
        if let Expr::Name(n) = expr {
            let name = n.id.as_str();
            if self.mark_aliases.contains(name) {
                return true;
            }
            if !self.globals.contains_key(name)
                && matches!(name, "staticmethod" | "classmethod" | "property")
            {
                return true;
            }
        }
        self.stdlib_path(expr).is_some_and(|p| {
            matches!(
                p.as_str(),
                "functools.cache"
                    | "functools.lru_cache"
                    | "functools.cached_property"
                    | "functools.total_ordering"
                    | "contextlib.contextmanager"
                    | "contextlib.asynccontextmanager"
                    | "dataclasses.dataclass"
                    | "typing.overload"
                    | "typing.final"
                    | "typing.runtime_checkable"
                    | "abc.abstractmethod"
                    | "enum.unique"
                    | "unittest.expectedFailure"
            )
        })
    }

    /// What subclassing `base` may run.
    fn base_kind(&self, base: &Expr) -> BaseKind {
        // `namedtuple("P", "x y")` makes a plain tuple class.
        if let Expr::Call(c) = base {
            if self.stdlib_path(&c.func).as_deref() == Some("collections.namedtuple")
                && self.harmless_call(base)
            {
                return BaseKind::Quiet;
            }
        }
        if let Expr::Name(n) = base {
            let name = n.id.as_str();
            if self.quiet_classes.contains(name) {
                return BaseKind::Quiet;
            }
            if !self.globals.contains_key(name) && crate::flatten::is_builtin_base(name) {
                return BaseKind::Quiet;
            }
        }
        match self.stdlib_path(base).as_deref() {
            Some(
                "unittest.TestCase"
                | "unittest.IsolatedAsyncioTestCase"
                | "unittest.case.TestCase"
                | "typing.Generic"
                | "typing.Protocol"
                | "typing.NamedTuple"
                | "typing.TypedDict"
                | "abc.ABC"
                | "collections.UserDict"
                | "collections.UserList"
                | "collections.UserString",
            ) => BaseKind::Quiet,
            Some("enum.Enum" | "enum.IntEnum" | "enum.StrEnum" | "enum.Flag" | "enum.IntFlag") => {
                BaseKind::Enum
            }
            _ => BaseKind::Other,
        }
    }

    /// A call that cannot change what a test reads: pytest's own (`pytest.param`, marks), the
    /// loader, builtins that build values, and path arithmetic.
    fn harmless_call(&self, call: &Expr) -> bool {
        let Expr::Call(c) = call else { return false };
        if self.pytest_path(call).is_some() {
            return true;
        }
        if let Expr::Name(n) = c.func.as_ref() {
            if self.loaders.contains(n.id.as_str()) {
                return true;
            }
            // `Marker()`: an instance of a class of the file whose construction runs none of its
            // code (`object.__new__` and `object.__init__`, which take no arguments).
            if self.inert_classes.contains(n.id.as_str()) && c.arguments.is_empty() {
                return true;
            }
        }
        let Some(dotted) = dotted_name(&c.func).or_else(|| {
            // `Path(__file__).parent.joinpath(...)`: a method of a path built from a path.
            let mut root = c.func.as_ref();
            loop {
                match root {
                    Expr::Attribute(a) => root = &a.value,
                    Expr::Call(inner) => root = &inner.func,
                    _ => break,
                }
            }
            dotted_name(root).filter(|d| self.is_path_constructor(d))
        }) else {
            return false;
        };
        if BUILDERS.contains(&dotted.as_str()) && !self.globals.contains_key(&dotted) {
            // On literal values only: on a user object even `sorted` runs its `__lt__`.
            let is_const = |n: &str| matches!(self.globals.get(n), Some(Global::Constant { .. }));
            return c
                .arguments
                .args
                .iter()
                .chain(c.arguments.keywords.iter().map(|k| &k.value))
                .all(|a| names::is_literal_value(a, &is_const));
        }
        let first = dotted.split('.').next().unwrap_or("");
        match self.globals.get(first) {
            Some(Global::Import { module, .. }) => {
                let full = format!("{module}{}", &dotted[first.len()..]);
                // Reading the platform, building paths and patterns: nothing the solution sees.
                full.starts_with("os.path.")
                    || full.starts_with("pathlib.")
                    || full.starts_with("sys.platform.")
                    || full.starts_with("platform.")
                    || full == "os.getenv"
                    || full == "os.environ.get"
                    || full == "collections.namedtuple"
                    || full.starts_with("typing.")
                    || full == "re.compile"
                    || full == "re.escape"
                    // unittest's skip decorators, on literal reasons and conditions: they only
                    // mark the function they decorate.
                    || (matches!(
                        full.as_str(),
                        "unittest.skip" | "unittest.skipIf" | "unittest.skipUnless"
                    ) && c
                        .arguments
                        .args
                        .iter()
                        .chain(c.arguments.keywords.iter().map(|k| &k.value))
                        .all(|a| {
                            names::is_literal_value(a, &|n| {
                                matches!(self.globals.get(n), Some(Global::Constant { .. }))
                            })
                        }))
            }
            _ => false,
        }
    }

    fn is_path_constructor(&self, dotted: &str) -> bool {
        let first = dotted.split('.').next().unwrap_or("");
        matches!(self.globals.get(first), Some(Global::Import { module, .. })
            if format!("{module}{}", &dotted[first.len()..]).starts_with("pathlib."))
    }

    /// The canonical dotted name of a decorator or mark expression, `pytest.mark.skip` for
    /// `@mark.skip` when `mark` came from pytest. Calls are looked through.
    pub fn pytest_path(&self, expr: &Expr) -> Option<String> {
        let expr = match expr {
            Expr::Call(call) => call.func.as_ref(),
            other => other,
        };
        // Cheap rejection before building any string: the chain must start at a pytest alias.
        let mut root = expr;
        while let Expr::Attribute(a) = root {
            root = &a.value;
        }
        let Expr::Name(first) = root else { return None };
        let canonical = self.pytest_aliases.get(first.id.as_str())?;
        // The canonical name, then the attributes after the first name (a name has no dot).
        let mut path = String::with_capacity(canonical.len() + 24);
        path.push_str(canonical);
        fn attrs(expr: &Expr, out: &mut String) {
            if let Expr::Attribute(a) = expr {
                attrs(&a.value, out);
                out.push('.');
                out.push_str(a.attr.as_str());
            }
        }
        attrs(expr, &mut path);
        Some(path)
    }

    /// `(fixture, Some(why))` when the fixture is autouse.
    fn fixture_of(
        &self,
        f: &'a ast::StmtFunctionDef,
        map: &SourceMap,
    ) -> Option<(Fixture<'a>, Option<Reason>)> {
        let decorator = f
            .decorator_list
            .iter()
            .find(|d| self.pytest_path(&d.expression).as_deref() == Some("pytest.fixture"))?;
        let line = map.line(f.range.start());
        let (autouse, unsupported) = fixture_options(f, &decorator.expression, line, map);
        if let Some(why) = unsupported {
            return Some((Fixture::Unsupported { why: kept(why) }, autouse));
        }
        let fixture = match fixture_value(f) {
            Some(expr) if self.is_solution_module_expr(expr) => Fixture::SolutionModule,
            Some(expr) => Fixture::Value {
                expr,
                params: f.parameters.iter().map(|p| p.name().to_string()).collect(),
                range: f.range,
            },
            None => Fixture::Unsupported {
                why: kept(Fixtures::FixtureDoesMoreThanReturn.because(format!(
                    "fixture `{}` (line {line}) does more than return a value",
                    f.name
                ))),
            },
        };
        Some((fixture, autouse))
    }
}

/// What `@pytest.fixture(...)`'s options say: why it runs before every test (`autouse=True`), and
/// why the extractor does not reproduce it (a wider scope, `params=`).
/// The `name=` of a `@pytest.fixture(...)` decorator: `Some(Some(x))` for a literal, `Some(None)`
/// for any other value, `None` without it.
fn fixture_name_option(f: &ast::StmtFunctionDef) -> Option<Option<String>> {
    f.decorator_list.iter().find_map(|d| match &d.expression {
        Expr::Call(call) => call
            .arguments
            .keywords
            .iter()
            .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "name"))
            .map(|k| match &k.value {
                Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
                _ => None,
            }),
        _ => None,
    })
}

fn fixture_options(
    f: &ast::StmtFunctionDef,
    decorator: &Expr,
    line: u32,
    map: &SourceMap,
) -> (Option<Reason>, Option<Reason>) {
    let mut autouse = None;
    let mut unsupported: Option<Reason> = None;
    let Expr::Call(call) = decorator else {
        return (autouse, unsupported);
    };
    for kw in call.arguments.keywords.iter() {
        let Some(arg) = kw.arg.as_ref() else { continue };
        match arg.as_str() {
            "autouse" if matches!(&kw.value, Expr::BooleanLiteral(b) if b.value) => {
                autouse = Some(Fixtures::AutouseFixture.because(format!(
                    "the autouse fixture `{}` (line {line}) runs before every test",
                    f.name
                )));
            }
            "scope" if !matches!(&kw.value, Expr::StringLiteral(s) if s.value.to_str() == "function") =>
            {
                unsupported = Some(Fixtures::FixtureWiderScope.because(format!(
                    "fixture `{}` (line {line}) is shared across tests (scope={}), so a test may see it changed by another",
                    f.name,
                    map.text(kw.value.range())
                )));
            }
            "params" => {
                unsupported = Some(Fixtures::FixtureParametrized.because(format!(
                    "fixture `{}` (line {line}) is parametrized",
                    f.name
                )));
            }
            _ => {}
        }
    }
    (autouse, unsupported)
}

/// The value a fixture gives when its body (after a docstring) is only `return <expr>` or starts
/// with `yield <expr>`.
fn fixture_value(f: &ast::StmtFunctionDef) -> Option<&Expr> {
    let mut body: &[Stmt] = &f.body;
    if let Some(Stmt::Expr(e)) = body.first() {
        if matches!(e.value.as_ref(), Expr::StringLiteral(_)) {
            body = &body[1..];
        }
    }
    match body.first() {
        Some(Stmt::Return(r)) if body.len() == 1 => r.value.as_deref(),
        Some(Stmt::Expr(e)) => match e.value.as_ref() {
            Expr::Yield(y) => y.value.as_deref(),
            _ => None,
        },
        _ => None,
    }
}

/// The functions of the file that load the solution module from its file.
fn solution_loaders(body: &[Stmt], solution_modules: &[String]) -> HashSet<String> {
    let mut loaders = HashSet::default();
    for stmt in body {
        if let Stmt::FunctionDef(f) = stmt {
            let named = f.name.as_str() == "_load_solution";
            if (named || is_loader_body(&f.body))
                && loads_solution_file(&f.body, solution_modules, named)
            {
                loaders.insert(f.name.to_string());
            }
        }
    }
    loaders
}

/// The first syntax error within a statement or on the rest of its last line.
fn syntax_error_in<'e>(
    stmt: &Stmt,
    source: &str,
    errors: &'e [TextRange],
) -> Option<&'e TextRange> {
    let rest = &source[stmt.range().end().to_usize()..];
    let tail = rest.find(['\n', '\r']).map_or(rest.len(), |i| i + 1);
    let reach = TextRange::new(
        stmt.range().start(),
        stmt.range().end() + ruff_text_size::TextSize::new(tail as u32),
    );
    errors.iter().find(|e| reach.contains_inclusive(e.start()))
}

/// What a decorator at module level does (`ModuleScope::definition_effect`).
const DECORATED: &str = "applies a decorator, which may run code";

/// What an xunit setup function at module level is: it runs around the tests, not at import.
const XUNIT_SETUP: &str =
    "is xunit setup that pytest runs before each test (`setup_function`) or before the module's first (`setup_module`)";

/// The rule of a module-level statement's effect (`ModuleScope::import_effect`'s words).
fn effect_rule(why: &str) -> Rule {
    match why {
        XUNIT_SETUP => Fixtures::XunitSetup.into(),
        OPERATES_ON_SOLUTION => ModuleCode::ImportOperatesOnSolution.into(),
        "stores into an object" => ModuleCode::ImportStoresIntoObject.into(),
        "rebinds or changes a value" => ModuleCode::ImportRebindsValue.into(),
        DECORATED => ModuleCode::ImportAppliesDecorator.into(),
        w if w.starts_with("creates a class") => ModuleCode::ClassCreationRunsCode.into(),
        _ => ModuleCode::ImportCallsCode.into(),
    }
}

/// When a module-level statement's effect happens: at import, but for xunit setup.
fn at_import(why: &str) -> &'static str {
    if why == XUNIT_SETUP {
        ""
    } else {
        " when the test file is imported"
    }
}

/// xunit setup functions at module level, which pytest runs before the tests.
fn is_xunit_module_setup(name: &str) -> bool {
    matches!(name, "setup_module" | "setUpModule" | "setup_function")
}

/// The decorator lists of a function, or of a class and (recursively) what it defines.
fn decorator_lists<'s>(stmt: &'s Stmt, out: &mut Vec<&'s [ast::Decorator]>) {
    match stmt {
        Stmt::FunctionDef(f) => out.push(&f.decorator_list),
        Stmt::ClassDef(c) => {
            out.push(&c.decorator_list);
            for s in &c.body {
                decorator_lists(s, out);
            }
        }
        _ => {}
    }
}

/// Calls a function on every expression of a tree, lambda bodies included.
struct EveryExpr<'f>(&'f mut dyn FnMut(&Expr));

impl<'e> Visitor<'e> for EveryExpr<'_> {
    fn visit_expr(&mut self, expr: &'e Expr) {
        (self.0)(expr);
        visitor::walk_expr(self, expr);
    }
}

/// `a.b.c` for a chain of attributes on a name.
pub fn dotted_name(expr: &Expr) -> Option<String> {
    let mut out = String::new();
    push_dotted(expr, &mut out).then_some(out)
}

/// Append `expr`'s dotted name to `out` (one string for the whole chain, not one per level);
/// false, with `out` partly written, when the chain does not start at a name.
fn push_dotted(expr: &Expr, out: &mut String) -> bool {
    match expr {
        Expr::Name(n) => {
            out.push_str(n.id.as_str());
            true
        }
        Expr::Attribute(a) => {
            if !push_dotted(&a.value, out) {
                return false;
            }
            out.push('.');
            out.push_str(a.attr.as_str());
            true
        }
        _ => false,
    }
}

/// `__name__ == "__main__"` (either way round).
fn is_main_guard(test: &Expr) -> bool {
    let Expr::Compare(c) = test else { return false };
    let is_name = |e: &Expr| matches!(e, Expr::Name(n) if n.id.as_str() == "__name__");
    let is_main = |e: &Expr| matches!(e, Expr::StringLiteral(s) if s.value.to_str() == "__main__");
    c.comparators.len() == 1
        && matches!(c.ops[0], ast::CmpOp::Eq)
        && ((is_name(&c.left) && is_main(&c.comparators[0]))
            || (is_main(&c.left) && is_name(&c.comparators[0])))
}

/// Every expression a module-level statement evaluates when the file is imported: all of it for a
/// simple statement; decorators, defaults and annotations of a `def` (not its body); the body of a
/// class; the tests and bodies of module-level blocks.
fn for_import_time_exprs(stmt: &Stmt, f: &mut dyn FnMut(&Expr)) {
    struct Walk<'f>(&'f mut dyn FnMut(&Expr));
    impl<'a> Visitor<'a> for Walk<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(d) => {
                    for dec in &d.decorator_list {
                        self.visit_expr(&dec.expression);
                    }
                    for p in d.parameters.iter() {
                        if let Some(default) = p.default() {
                            self.visit_expr(default);
                        }
                    }
                }
                other => visitor::walk_stmt(self, other),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            (self.0)(expr);
            if let Expr::Lambda(_) = expr {
                return;
            }
            visitor::walk_expr(self, expr);
        }
    }
    Walk(f).visit_stmt(stmt);
}

/// Whether a loader loads the solution and not another file (an oracle, a reference): every
/// `.py` file name it mentions is the solution's, and, unless it is named `_load_solution`, it
/// mentions the solution by name.
fn loads_solution_file(body: &[Stmt], solution_modules: &[String], named: bool) -> bool {
    struct Strings(Vec<String>);
    impl<'a> Visitor<'a> for Strings {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::StringLiteral(s) = expr {
                self.0.push(s.value.to_str().to_string());
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut strings = Strings(Vec::new());
    for stmt in body {
        strings.visit_stmt(stmt);
    }
    let is_solution = |s: &str| {
        let stem = s.rsplit(['/', '\\']).next().unwrap_or(s);
        let stem = stem.strip_suffix(".py").unwrap_or(stem);
        solution_modules.iter().any(|m| m == stem)
    };
    let other_file = strings
        .0
        .iter()
        .any(|s| s.ends_with(".py") && !is_solution(s));
    !other_file && (named || strings.0.iter().any(|s| is_solution(s)))
}

/// Whether a function body loads a module from a file (a solution loader).
fn is_loader_body(body: &[Stmt]) -> bool {
    struct Finder(bool);
    impl<'a> Visitor<'a> for Finder {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Attribute(a) = expr {
                if matches!(
                    a.attr.as_str(),
                    "spec_from_file_location" | "exec_module" | "import_module"
                ) {
                    self.0 = true;
                }
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut finder = Finder(false);
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.0
}

/// Module-level names the file changes anywhere after binding them: method calls on them, item or
/// attribute stores, augmented assignment, `del`, `global`. Maps name → the first statement seen.
fn changed_names(body: &[Stmt]) -> HashMap<String, TextRange> {
    let mut finder = ChangedNames::default();
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.found
}

/// What `changed_names` finds, statement by statement.
#[derive(Default)]
struct ChangedNames {
    found: HashMap<String, TextRange>,
    pub(crate) current: TextRange,
}

impl ChangedNames {
    fn mark(&mut self, expr: &Expr) {
        if let Some(root) = names::root_name(expr) {
            self.found.entry(root.to_string()).or_insert(self.current);
        }
    }
}

impl<'a> Visitor<'a> for ChangedNames {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        self.current = stmt.range();
        match stmt {
            Stmt::AugAssign(a) => self.mark(&a.target),
            Stmt::Delete(d) => d.targets.iter().for_each(|t| self.mark(t)),
            Stmt::Global(g) => {
                for n in &g.names {
                    self.found.entry(n.to_string()).or_insert(g.range);
                }
            }
            Stmt::Assign(a) => {
                for t in &a.targets {
                    if matches!(t, Expr::Attribute(_) | Expr::Subscript(_)) {
                        self.mark(t);
                    }
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(call) = expr {
            if let Expr::Attribute(a) = call.func.as_ref() {
                self.mark(&a.value);
            }
        }
        visitor::walk_expr(self, expr);
    }
}

/// Module-level names a statement changes (`changed_names`), leaving out, inside a function, the
/// function's own locals (its parameters and what it binds) unless it declares them `global`.
fn changed_outside_locals(stmt: &Stmt) -> Vec<String> {
    match stmt {
        Stmt::FunctionDef(f) => {
            let mut bound = BoundNames::default();
            for s in &f.body {
                bound.visit_stmt(s);
            }
            let mut globals: HashSet<String> = HashSet::default();
            for s in &f.body {
                if let Stmt::Global(g) = s {
                    globals.extend(g.names.iter().map(|n| n.to_string()));
                }
            }
            let locals: HashSet<String> = bound
                .names
                .into_iter()
                .chain(f.parameters.iter().map(|p| p.name().to_string()))
                .filter(|n| !globals.contains(n))
                .collect();
            let mut out: Vec<String> = changed_names(&f.body)
                .into_keys()
                .filter(|n| !locals.contains(n))
                .collect();
            // Decorators and defaults run at module level.
            for d in &f.decorator_list {
                out.extend(changed_in_expr(&d.expression));
            }
            for p in f.parameters.iter() {
                if let Some(default) = p.default() {
                    out.extend(changed_in_expr(default));
                }
            }
            out
        }
        Stmt::ClassDef(c) => {
            let mut out = Vec::new();
            for d in &c.decorator_list {
                out.extend(changed_in_expr(&d.expression));
            }
            for s in &c.body {
                out.extend(changed_outside_locals(s));
            }
            out
        }
        other => changed_names(std::slice::from_ref(other))
            .into_keys()
            .collect(),
    }
}

/// `changed_names` of one expression (as an expression statement of it would give).
fn changed_in_expr(expr: &Expr) -> Vec<String> {
    let mut finder = ChangedNames {
        current: expr.range(),
        ..Default::default()
    };
    finder.visit_expr(expr);
    finder.found.into_keys().collect()
}

/// Names a `global` statement declares anywhere in the file (in any function or class body).
const OPERATES_ON_SOLUTION: &str =
    "operates on a value of the solution, which may run the candidate's code or raise";

/// What subclassing a base may run (`ModuleScope::base_kind`).
enum BaseKind {
    /// Nothing of the file's or the solution's.
    Quiet,
    /// An enum: its members are made by the class's own `__init__` / `__new__`, if it has one.
    Enum,
    Other,
}

/// Whether a class body binds `name` (a method or an attribute).
fn class_defines(c: &ast::StmtClassDef, name: &str) -> bool {
    c.body.iter().any(|s| {
        let mut bound = BoundNames::default();
        bound.visit_stmt(s);
        bound.names.iter().any(|n| n == name)
    })
}

/// Module-level classes that making an instance of, with no arguments, runs no code of the file:
/// no decorator, no base but `object`, no keyword (a metaclass), a body of methods and plain
/// assignments that defines none of `__init__`, `__new__`, `__del__` (a finalizer runs when the
/// instance is dropped) or `__class__`; the only module-level binding of its name, which no
/// `global` statement rebinds.
fn inert_classes(body: &[Stmt]) -> HashSet<String> {
    /// What a class of the file may define and stay inert to make: methods a test's own
    /// operations call (printing, comparing, hashing, containers, calling), and its docstring.
    const SAFE_DUNDERS: [&str; 24] = [
        "__doc__",
        "__module__",
        "__qualname__",
        "__slots__",
        "__str__",
        "__repr__",
        "__format__",
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        "__hash__",
        "__bool__",
        "__len__",
        "__iter__",
        "__next__",
        "__contains__",
        "__getitem__",
        "__call__",
        "__add__",
        "__mul__",
        "__sub__",
    ];
    const RUN_ON_CONSTRUCTION: [&str; 4] = ["__init__", "__new__", "__del__", "__class__"];
    let mut bindings: HashMap<String, usize> = HashMap::default();
    for stmt in body {
        let mut bound = BoundNames::default();
        bound.visit_stmt(stmt);
        for name in bound.names {
            *bindings.entry(name).or_default() += 1;
        }
    }
    let declared: HashSet<String> = global_declared(body).into_iter().map(|(n, _)| n).collect();
    let object_base = !bindings.contains_key("object");
    body.iter()
        .filter_map(|s| match s {
            Stmt::ClassDef(c) => Some(c),
            _ => None,
        })
        .filter(|c| {
            let plain_bases = c.arguments.as_deref().is_none_or(|a| {
                a.keywords.is_empty()
                    && match a.args.as_ref() {
                        [] => true,
                        [Expr::Name(n)] => n.id.as_str() == "object" && object_base,
                        _ => false,
                    }
            });
            let plain_body = c.body.iter().all(|s| {
                matches!(
                    s,
                    Stmt::FunctionDef(_) | Stmt::Assign(_) | Stmt::AnnAssign(_) | Stmt::Pass(_)
                ) || matches!(s, Stmt::Expr(e) if e.value.is_string_literal_expr())
            });
            let defines = |name: &str| {
                c.body.iter().any(|s| {
                    let mut bound = BoundNames::default();
                    bound.visit_stmt(s);
                    bound.names.iter().any(|n| n == name)
                })
            };
            // A dunder the interpreter calls by itself at some later point (`__set_name__` when
            // the instance lands in a class body, `__mro_entries__`, …) is another place its code
            // runs: only the operators and conversions a test calls for are allowed.
            let implicit_hooks = c.body.iter().any(|s| {
                let mut bound = BoundNames::default();
                bound.visit_stmt(s);
                bound.names.iter().any(|n| {
                    n.starts_with("__") && n.ends_with("__") && !SAFE_DUNDERS.contains(&n.as_str())
                })
            });
            c.decorator_list.is_empty()
                && c.type_params.is_none()
                && plain_bases
                && plain_body
                && !implicit_hooks
                && !RUN_ON_CONSTRUCTION.iter().any(|n| defines(n))
                && bindings.get(c.name.as_str()) == Some(&1)
                && !declared.contains(c.name.as_str())
        })
        .map(|c| c.name.to_string())
        .collect()
}

fn global_declared(body: &[Stmt]) -> Vec<(String, TextRange)> {
    #[derive(Default)]
    struct Finder(Vec<(String, TextRange)>);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if let Stmt::Global(g) = stmt {
                self.0
                    .extend(g.names.iter().map(|n| (n.to_string(), g.range)));
            }
            visitor::walk_stmt(self, stmt);
        }
    }
    let mut finder = Finder::default();
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.0
}

/// Builtins that build values: harmless on literal values.
const BUILDERS: &[&str] = &[
    "range",
    "list",
    "tuple",
    "dict",
    "set",
    "frozenset",
    "str",
    "int",
    "float",
    "bool",
    "bytes",
    "len",
    "zip",
    "enumerate",
    "object",
    "sorted",
    "min",
    "max",
    "sum",
    "abs",
    "round",
    "reversed",
    "repr",
    "chr",
    "ord",
];

/// Standard-library calls that change process-wide state a solution may read.
const GLOBAL_STATE_CALLS: &[&str] = &[
    "random.seed",
    "random.setstate",
    "numpy.random.seed",
    "os.putenv",
    "os.unsetenv",
    "os.chdir",
    "os.environ.update",
    "os.environ.setdefault",
    "os.environ.pop",
    "os.environ.clear",
    "sys.setrecursionlimit",
    "decimal.setcontext",
    "locale.setlocale",
    "time.tzset",
    "socket.setdefaulttimeout",
];

/// Statements anywhere in the file that change a solution module shared by all tests (one bound at
/// module level: `import solution`, `sol = _load_solution()`): attribute or item stores on it,
/// `del`, `setattr`/`delattr` on it. A function's own local of the same name does not count.
fn shared_solution_changes(body: &[Stmt], globals: &HashMap<String, Global>) -> Vec<TextRange> {
    let mut finder = SharedChanges {
        globals,
        locals: HashSet::default(),
        current: TextRange::default(),
        found: Vec::new(),
    };
    visitor::walk_body(&mut finder, body);
    finder.found
}

/// The walk of `shared_solution_changes`: the statements found so far, in order.
struct SharedChanges<'g, 'a> {
    globals: &'g HashMap<String, Global<'a>>,
    /// The locals of the function being walked (they shadow module-level names).
    locals: HashSet<String>,
    pub(crate) current: TextRange,
    found: Vec<TextRange>,
}

impl SharedChanges<'_, '_> {
    /// `random.seed` for `random.seed`, `seed` (from `from random import seed`), `rnd.seed`
    /// (`import random as rnd`): the dotted path through the file's imports.
    fn stdlib_path(&self, func: &Expr) -> Option<String> {
        let dotted = dotted_name(func)?;
        let first = dotted.split('.').next()?;
        match self.globals.get(first) {
            Some(Global::Import { module, .. }) if !self.locals.contains(first) => {
                Some(format!("{module}{}", &dotted[first.len()..]))
            }
            _ => None,
        }
    }

    fn shared(&self, expr: &Expr) -> bool {
        names::root_name(expr).is_some_and(|r| {
            !self.locals.contains(r) && matches!(self.globals.get(r), Some(Global::SolutionModule))
        })
    }

    fn record(&mut self) {
        if self.found.last() != Some(&self.current) {
            self.found.push(self.current);
        }
    }

    /// A function body, with its parameters and what it binds as locals.
    fn function(&mut self, f: &ast::StmtFunctionDef) {
        let mut bound = BoundNames::default();
        for s in &f.body {
            bound.visit_stmt(s);
        }
        let saved = std::mem::replace(&mut self.locals, bound.names.into_iter().collect());
        self.locals
            .extend(f.parameters.iter().map(|p| p.name().to_string()));
        visitor::walk_body(self, &f.body);
        self.locals = saved;
    }

    /// An attribute or item store (or `del`) on the shared solution module.
    fn stores_into_shared(&self, stmt: &Stmt) -> bool {
        let targets: Vec<&Expr> = match stmt {
            Stmt::Assign(a) => a.targets.iter().collect(),
            Stmt::AugAssign(a) => vec![&a.target],
            Stmt::AnnAssign(a) => vec![&a.target],
            Stmt::Delete(d) => d.targets.iter().collect(),
            _ => Vec::new(),
        };
        targets
            .iter()
            .any(|t| matches!(t, Expr::Attribute(_) | Expr::Subscript(_)) && self.shared(t))
    }
}

impl<'a> Visitor<'a> for SharedChanges<'_, '_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if let Stmt::FunctionDef(f) = stmt {
            self.function(f);
            return;
        }
        self.current = stmt.range();
        if self.stores_into_shared(stmt) {
            self.record();
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(call) = expr {
            if matches!(call.func.as_ref(), Expr::Name(n) if matches!(n.id.as_str(), "setattr" | "delattr"))
                && call.arguments.args.first().is_some_and(|a| self.shared(a))
            {
                self.record();
            }
            // Process-wide state the solution may read (the RNG, the environment, …): a test
            // that changes it changes what every later test sees.
            if self
                .stdlib_path(&call.func)
                .is_some_and(|p| GLOBAL_STATE_CALLS.contains(&p.as_str()))
            {
                self.record();
            }
        }
        visitor::walk_expr(self, expr);
    }
}

/// Names bound anywhere in a statement (assignments, loop targets, imports, `as` targets, defs),
/// not descending into nested functions or classes.
#[derive(Default)]
pub struct BoundNames {
    pub names: Vec<String>,
}

impl<'a> Visitor<'a> for BoundNames {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => {
                self.names.push(f.name.to_string());
                return;
            }
            Stmt::ClassDef(c) => {
                self.names.push(c.name.to_string());
                return;
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    let bound = a
                        .asname
                        .as_ref()
                        .map(|n| n.to_string())
                        .unwrap_or_else(|| a.name.split('.').next().unwrap_or("").to_string());
                    self.names.push(bound);
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    self.names
                        .push(a.asname.as_ref().unwrap_or(&a.name).to_string());
                }
            }
            Stmt::Assign(a) => a
                .targets
                .iter()
                .for_each(|t| names::collect_targets_vec(t, &mut self.names)),
            Stmt::AnnAssign(a) => names::collect_targets_vec(&a.target, &mut self.names),
            Stmt::AugAssign(a) => names::collect_targets_vec(&a.target, &mut self.names),
            Stmt::For(f) => names::collect_targets_vec(&f.target, &mut self.names),
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(v) = &item.optional_vars {
                        names::collect_targets_vec(v, &mut self.names);
                    }
                }
            }
            Stmt::Try(t) => {
                for h in &t.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    if let Some(n) = &h.name {
                        self.names.push(n.to_string());
                    }
                }
            }
            Stmt::Delete(d) => d
                .targets
                .iter()
                .for_each(|t| names::collect_targets_vec(t, &mut self.names)),
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Named(n) => {
                names::collect_targets_vec(&n.target, &mut self.names);
                self.visit_expr(&n.value);
            }
            // Comprehensions and lambdas have their own scopes (walrus targets inside still bind here,
            // but are rare enough to treat through the walk above).
            Expr::Lambda(_) => {}
            _ => visitor::walk_expr(self, expr),
        }
    }
}

/// The name the evaluator binds the solution module to (`ModuleScope::module_binding`): a
/// module-level name of the file bound once, to the solution module (`import solution`,
/// `sol = _load_solution()`), so that the expression reads as the test does; else the first of
/// `solution`, `solution_`, … that is no identifier of the file, so that nothing the expression
/// replays (a local, a parameter, a helper's name) can hide it.
fn module_binding_name(body: &[Stmt], globals: &HashMap<String, Global>) -> String {
    let mut ids = Identifiers::default();
    for stmt in body {
        ids.visit_stmt(stmt);
    }
    let mut own: Vec<&String> = globals
        .iter()
        .filter(|(n, g)| {
            matches!(g, Global::SolutionModule) && ids.bound.get(n.as_str()) == Some(&1)
        })
        .map(|(n, _)| n)
        .collect();
    own.sort();
    if let Some(name) = own.first() {
        return (*name).clone();
    }
    let mut candidate = String::from("solution");
    while ids.seen.contains(candidate.as_str()) {
        candidate.push('_');
    }
    candidate
}

/// Every identifier of a file: each name read or bound (`seen`), and how often each is bound.
#[derive(Default)]
struct Identifiers<'a> {
    seen: HashSet<&'a str>,
    bound: HashMap<&'a str, usize>,
}

impl<'a> Identifiers<'a> {
    fn bind(&mut self, name: &'a str) {
        self.seen.insert(name);
        *self.bound.entry(name).or_default() += 1;
    }
}

impl<'a> Visitor<'a> for Identifiers<'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(f) => self.bind(f.name.as_str()),
            Stmt::ClassDef(c) => self.bind(c.name.as_str()),
            Stmt::Global(g) => g.names.iter().for_each(|n| self.bind(n.as_str())),
            Stmt::Nonlocal(g) => g.names.iter().for_each(|n| self.bind(n.as_str())),
            Stmt::Import(i) => {
                for a in &i.names {
                    match &a.asname {
                        Some(asname) => self.bind(asname.as_str()),
                        None => self.bind(a.name.as_str().split('.').next().unwrap_or_default()),
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                for a in &i.names {
                    self.bind(a.asname.as_ref().unwrap_or(&a.name).as_str());
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr {
            match n.ctx {
                ast::ExprContext::Load => {
                    self.seen.insert(n.id.as_str());
                }
                _ => self.bind(n.id.as_str()),
            }
        }
        visitor::walk_expr(self, expr);
    }

    fn visit_parameter(&mut self, parameter: &'a ast::Parameter) {
        self.bind(parameter.name.as_str());
        visitor::walk_parameter(self, parameter);
    }

    fn visit_except_handler(&mut self, handler: &'a ast::ExceptHandler) {
        let ast::ExceptHandler::ExceptHandler(h) = handler;
        if let Some(name) = &h.name {
            self.bind(name.as_str());
        }
        visitor::walk_except_handler(self, handler);
    }

    fn visit_pattern(&mut self, pattern: &'a ast::Pattern) {
        match pattern {
            ast::Pattern::MatchAs(p) => {
                if let Some(n) = &p.name {
                    self.bind(n.as_str());
                }
            }
            ast::Pattern::MatchStar(p) => {
                if let Some(n) = &p.name {
                    self.bind(n.as_str());
                }
            }
            ast::Pattern::MatchMapping(p) => {
                if let Some(n) = &p.rest {
                    self.bind(n.as_str());
                }
            }
            _ => {}
        }
        visitor::walk_pattern(self, pattern);
    }

    fn visit_type_param(&mut self, type_param: &'a ast::TypeParam) {
        self.bind(type_param.name().as_str());
        visitor::walk_type_param(self, type_param);
    }
}

/// A module whose import the evaluator makes as the test file did (`Binding::Import`): pytest
/// itself (`pytest.approx`), importable wherever pytest runs. Any other module may be the test's
/// neighbour, which pytest finds through its rootdir on `sys.path` and an evaluator need not (the
/// file's reads of it stay dropped).
fn is_third_party(module: &str) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    top == "pytest"
}

/// Whether a function's body reads `name`.
fn reads_name(f: &ast::StmtFunctionDef, name: &str) -> bool {
    ruff_python_ast::helpers::any_over_body(
        &f.body,
        &|e: &Expr| matches!(e, Expr::Name(n) if n.id == name && n.ctx == ast::ExprContext::Load),
    )
}
