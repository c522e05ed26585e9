//! The passes that build a [`ModuleScope`]: for a test file ([`ModuleScope::analyse`]) and for a
//! conftest ([`ModuleScope::analyse_conftest`]), from the empty scope.

use crate::sort::SharedSort as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::rules::ModuleCode;
use crate::source::SourceMap;

use super::bindings::FileFacts;
use super::changes::{global_declared, shared_solution_changes};
use super::effects::{class_defines, inert_classes};
use super::solution::{module_binding_name, solution_loaders};
use super::{kept, Global, ModuleScope, PreludeStmt};

/// Module-level statements written as one expression for the evaluator's namespace
/// (`flatten::namespace_replay`, handed in by the caller: the flattening sits above this module).
pub type NamespaceReplay = fn(&ModuleScope, &SourceMap, Vec<&PreludeStmt>) -> Option<String>;

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
        replay: Option<NamespaceReplay>,
    ) -> Self {
        let mut scope = ModuleScope::empty(solution_modules);
        scope.after_solution = after_solution;
        scope.loaders = solution_loaders(body, &scope.solution_modules);
        let file = FileFacts::of(body, map);
        let inert_classes = inert_classes(body);
        scope.pickle_on_literals = super::pickle::on_literals_only(body);
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
        if let (true, Some(replay)) = (after_solution, replay) {
            scope.evaluate_code_before_bindings(map, replay);
        }
        scope.untrust_bindings_after_code(map);
        scope.settle_import_reads();
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

    /// With the solution imported before the file's code runs (`after_solution`), module-level
    /// code between that import and the file's own `from solution import X` may change what `X`
    /// takes only through state the namespace's evaluation can reproduce in order: code that binds
    /// no name and reads only the standard library, builtins and literals (a version guard that
    /// patches `enum`) becomes a `Binding::Eval` at its place among the bindings, run once where
    /// pytest ran it, and leaves the fold's replay. Anything else keeps the bindings after it
    /// untrusted (`untrust_bindings_after_code`).
    fn evaluate_code_before_bindings(&mut self, map: &SourceMap, replay: NamespaceReplay) {
        use crate::model::Binding;
        let Some(last) = self
            .solution_bindings
            .iter()
            .filter(|(r, b)| !r.is_empty() && !matches!(b, Binding::Import { .. }))
            .map(|(r, _)| r.start())
            .max()
        else {
            return;
        };
        if self.globals.contains_key("__import__") {
            return;
        }
        let before: Vec<usize> = (0..self.prelude.len())
            .filter(|&i| {
                !matches!(self.prelude[i], PreludeStmt::Stmt { inert: true, .. })
                    && self.prelude[i].range().start() < last
            })
            .collect();
        if before.is_empty() {
            return;
        }
        let mut evals = Vec::new();
        for &i in &before {
            let entry = &self.prelude[i];
            let PreludeStmt::Stmt { stmt, .. } = entry else {
                return;
            };
            let mut bound = super::BoundNames::default();
            ruff_python_ast::visitor::Visitor::visit_stmt(&mut bound, stmt);
            if !bound.names.is_empty() {
                return;
            }
            let Some(expr) = replay(self, map, vec![entry]) else {
                return;
            };
            evals.push((
                stmt.range(),
                Binding::Eval {
                    expr,
                    line: map.line(stmt.range().start()),
                },
            ));
        }
        for (i, &at) in before.iter().enumerate() {
            self.prelude.remove(at - i);
        }
        self.solution_bindings.extend(evals);
        self.solution_bindings
            .sort_shared_by_key(|(r, _)| r.start());
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
            other_star_import: false,
            pickle_on_literals: false,
            fixture_functions: HashSet::default(),
            pytest_aliases: HashMap::default(),
            shared_changes: Vec::new(),
            module_skip: None,
            conftest_defs: Vec::new(),
            prelude: Vec::new(),
            prelude_names: HashSet::default(),
            imported_from_solution: Vec::new(),
            solution_bindings: Vec::new(),
            import_reads: Vec::new(),
            import_read_exprs: Vec::new(),
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
