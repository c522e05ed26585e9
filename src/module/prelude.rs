//! The prelude: module-level statements (and parametrize lists) replayed before every test instead
//! of dropping the file's tests, and the ones that become barriers once the whole file is read.

use crate::sort::SharedSort as _;
use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange, TextSize};

use crate::names;
use crate::rules::ModuleCode;
use crate::source::SourceMap;
use crate::walk::{any_expr, for_each_expr, Scope};

use super::changes::{changed_outside_locals, changed_outside_locals_with};
use super::effects::{at_import, effect_rule, is_xunit_module_setup};
use super::walk::{for_import_time_exprs, is_main_guard, BoundNames};
use super::{kept, Global, ModuleScope, PreludeStmt};

impl<'a> ModuleScope<'a> {
    /// What the statement runs at import: replayed before every test (the prelude), or its
    /// parametrize values replayed, or else a barrier to every test.
    pub(super) fn note_import_effect(&mut self, stmt: &'a Stmt, line: u32, map: &SourceMap) {
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
                let refused = !names::Facts::of(test).walrus.is_empty()
                    || self.pytest_path(test).is_some()
                    || self.is_solution_module_expr(test)
                    || any_expr(test, Scope::All, |e| {
                        matches!(e, Expr::Call(_)) && self.pytest_path(e).is_some()
                    });
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
            names.sort_shared();
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
                        for_each_expr(a, Scope::All, &mut visit);
                    }
                }
                Expr::Starred(_) => replayable = false,
                other => for_each_expr(other, Scope::All, &mut visit),
            }
        }
        calls_code && !uses_pytest && replayable
    }

    /// `pytest.param(values…, id=…, marks=…)`: its values are replayed (as a tuple), when none is
    /// starred; its id and marks only if they run no user code.
    fn replayable_param_call(&self, c: &ast::ExprCall) -> bool {
        let runs_user_code = |value: &Expr| {
            any_expr(value, Scope::All, |x| {
                matches!(x, Expr::Call(_)) && !self.harmless_call(x)
            })
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
    pub(super) fn settle_prelude(&mut self, body: &'a [Stmt], map: &SourceMap) {
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
        self.global_barriers.sort_shared_by_key(|(line, _)| *line);
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
            PreludeStmt::Read { expr } => format!(
                "`{}` on line {line} reads the solution",
                map.snippet(expr.range())
            ),
        };
        self.global_barriers.push((
            line,
            kept(ModuleCode::CodeBeforeSolutionImport.because(format!("{what} when the test file is imported, before the file's own import of the solution binds its names (the evaluator makes those bindings first), and may change state"))),
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
                PreludeStmt::ParamList { .. } | PreludeStmt::Read { .. } => None,
            })
            .collect();
        let mut names: HashSet<String> = HashSet::default();
        let mut elsewhere: HashSet<String> = HashSet::default();
        let mut changed: HashSet<String> = HashSet::default();
        // Changed other than by calling a method, which cannot change an immutable value.
        let mut changed_otherwise: HashSet<String> = HashSet::default();
        let mut immutable: HashSet<String> = HashSet::default();
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
                if let Stmt::Assign(a) = stmt {
                    if let [Expr::Name(n)] = a.targets.as_slice() {
                        if self.immutable(&a.value) {
                            immutable.insert(n.id.to_string());
                        }
                    }
                }
                names.extend(bound.names);
            } else {
                elsewhere.extend(bound.names);
                changed.extend(changed_outside_locals(stmt));
                changed_otherwise.extend(changed_outside_locals_with(stmt, true));
            }
        }
        names.retain(|n| {
            !elsewhere.contains(n)
                && (!changed.contains(n)
                    || (immutable.contains(n) && !changed_otherwise.contains(n)))
        });
        names
    }
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

/// Whether a function's body reads `name`.
fn reads_name(f: &ast::StmtFunctionDef, name: &str) -> bool {
    ruff_python_ast::helpers::any_over_body(
        &f.body,
        &|e: &Expr| matches!(e, Expr::Name(n) if n.id == name && n.ctx == ast::ExprContext::Load),
    )
}
