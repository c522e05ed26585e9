//! Flattening one test case into standalone assertions (the `full` stage).
//!
//! The test is read as a sequence of *items* (`items`): setup, parameters and fixtures, then every
//! top-level statement, earlier asserts included. For each `assert`, **everything before it is
//! replayed** (`effects`: replay is the default, omission needs a proof): every item that is not
//! provably inert, plus the inert bindings the replay reads. If those are plain bindings whose
//! substitution is exactly equivalent, they are inlined (`emit::try_inline`); otherwise they are
//! *folded*, replayed in order inside `(lambda: (x := …, x.put(…), <test>)[-1])()`, with earlier
//! asserts joined by `and` because pytest stops at the first that fails (`emit::fold`). What can be
//! neither replayed nor shown inert drops the assertion, naming the statement and line; so do names
//! the solution's namespace lacks (`resolve`).
//!
//! This module walks a test's body; the items before it come from `setup`, what each assert
//! replays from `replay`, and the decision for each assert from `assertion`.

mod assertion;
mod conftest_replay;
mod effects;
pub(crate) use effects::{is_builtin_base, is_stdlib, stmt_is_inert};
mod emit;
mod items;
mod lifetimes;
mod replay;
mod resolve;
mod setup;

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::collect::Case;
use crate::model::Assertion;
use crate::module::{BoundNames, Fixture, Global, ModuleScope, PreludeStmt};
use crate::rules::{Helpers, Raises, Reason, Statements};
use crate::shape::Shape;
use crate::source::SourceMap;
use items::{Aliases, Bound, Item};

pub(crate) use conftest_replay::conftest_replay;

/// The most source text (bytes of the test body before an assert, setup included) an assertion
/// replays. Replaying the whole prefix makes the output of a long test grow with the square of its
/// length; past this bound the assert is dropped, saying so, which keeps both the analysis and
/// each expression bounded (a test of 2,000 `put`/`assert` pairs keeps its first few hundred).
pub const MAX_REPLAY_SOURCE: usize = 16 * 1024;

/// pytest calls that end the test as skipped or expected to fail, wherever they are in it.
const PYTEST_SKIPS: &[&str] = &["pytest.skip", "pytest.xfail", "pytest.importorskip"];

pub struct Ctx<'s, 'a> {
    pub scope: &'s ModuleScope<'a>,
    pub map: &'s SourceMap<'a>,
    pub slug: &'s str,
    /// Ranges of the file's syntax errors: a test containing one is not extracted.
    pub errors: &'s [TextRange],
    /// Mutable parametrize values an earlier case already received: pytest hands every case the
    /// same object, which an earlier case may have changed.
    pub shared_params: std::cell::RefCell<HashSet<TextRange>>,
    /// Characters of kept expressions written so far, against `write_limit`: an extraction that
    /// would write more stops early (`extract::extract_within`).
    pub written: std::cell::Cell<usize>,
    pub write_limit: usize,
    /// A module-level name with the extractor's reserved prefix, found once per file.
    pub reserved_global: std::cell::OnceCell<Option<String>>,
}

impl Ctx<'_, '_> {
    /// Count what `a` wrote; whether the extraction may go on.
    pub fn spend(&self, a: &Assertion) -> bool {
        let n = a.expr.as_ref().map_or(0, String::len);
        self.written.set(self.written.get().saturating_add(n));
        !self.over_budget()
    }

    pub fn over_budget(&self) -> bool {
        self.written.get() > self.write_limit
    }
}

/// What is known about the test as a whole while its asserts are decided.
struct Test<'t, 'a> {
    case: &'t Case<'a>,
    locals: HashSet<String>,
    aliases: Aliases,
}

impl Test<'_, '_> {
    fn is_local(&self, n: &str) -> bool {
        self.locals.contains(n) && !self.aliases.contains_key(n)
    }
}

pub fn flatten_case(ctx: &Ctx, case: &Case, solution_names: &mut Vec<String>) -> Vec<Assertion> {
    let f = case.func;
    let (mut test, own) = test_of(ctx, case);
    let deferred = deferred_reads(f, &test);
    let fresh_load = fresh_load_reason(ctx, f);
    let mut items: Vec<Item> = Vec::new();
    setup::setup_items(ctx, &mut test, &own, fresh_load.as_deref(), &mut items);
    let mut bound = Bound::default();
    for item in &items {
        bound.after(item);
    }
    let mut walk = Walk {
        ctx,
        test: &test,
        deferred,
        prelude_chars: prelude_replay_chars(ctx),
        items,
        bound,
        out: Vec::new(),
        unreachable: whole_test_reason(ctx, &test),
    };
    for stmt in &f.body {
        walk.statement(stmt, solution_names);
    }
    let mut out = walk.out;
    out.sort_by_key(|a| a.span.start);
    out
}

/// The test, with its locals and its aliases of the solution; and its own locals (its
/// parameters and what its body binds), without the names the prelude binds. A module-level name
/// the prelude binds or reads under one of the test's own names would be the same local of the
/// fold.
fn test_of<'t, 'a>(ctx: &Ctx<'_, 'a>, case: &'t Case<'a>) -> (Test<'t, 'a>, HashSet<String>) {
    let f = case.func;
    let mut bound_names = BoundNames::default();
    for stmt in &f.body {
        bound_names.visit_stmt(stmt);
    }
    let mut locals: HashSet<String> = bound_names.names.iter().cloned().collect();
    locals.extend(f.parameters.iter().map(|p| p.name().to_string()));
    let own = locals.clone();
    locals.extend(ctx.scope.prelude_names.iter().cloned());
    let test = Test {
        case,
        locals,
        aliases: resolve::local_aliases(ctx, f),
    };
    (test, own)
}

/// Whether the test loads the solution itself (a loader call, a fixture returning the module),
/// reading a module other than the one the file's import-time code worked on: how, if it does.
pub(super) fn fresh_load_reason(ctx: &Ctx, f: &ast::StmtFunctionDef) -> Option<String> {
    resolve::loader_calls(ctx, f)
        .first()
        .map(|r| {
            format!(
                "the test loads the solution again on line {}",
                ctx.map.line(r.start())
            )
        })
        .or_else(|| {
            f.parameters.iter().find_map(|p| {
                let name = p.name().as_str();
                matches!(ctx.scope.fixtures.get(name), Some(Fixture::SolutionModule))
                    .then(|| format!("the test's fixture `{name}` loads the solution again"))
            })
        })
}

/// The import-time code every assertion replays, which counts towards its bound.
fn prelude_replay_chars(ctx: &Ctx) -> usize {
    ctx.scope
        .prelude
        .iter()
        .filter(|p| !matches!(p, PreludeStmt::Stmt { inert: true, .. }))
        .map(|p| p.range().len().to_usize())
        .sum::<usize>()
        + ctx
            .scope
            .conftest_replays
            .iter()
            .map(|r| r.text.len())
            .sum::<usize>()
}

/// The walk through a test's body, statement by statement: the items so far, the names they
/// certainly bound, and the assertions decided.
struct Walk<'w, 's, 'a, 't> {
    ctx: &'w Ctx<'s, 'a>,
    test: &'w Test<'t, 'a>,
    /// Locals read late (see `deferred_reads`).
    deferred: HashSet<String>,
    /// Source text of the prelude every assertion replays.
    prelude_chars: usize,
    items: Vec<Item<'a>>,
    bound: Bound,
    out: Vec<Assertion>,
    /// Why pytest never reaches the statements from here on, once something ended the test.
    unreachable: Option<Reason>,
}

impl<'a> Walk<'_, '_, 'a, '_> {
    fn statement(&mut self, stmt: &'a Stmt, solution_names: &mut Vec<String>) {
        let ctx = self.ctx;
        if ctx.over_budget() {
            return;
        }
        if let Some(why) = &self.unreachable {
            let why = why.clone();
            self.drop_nested(stmt, &why);
            self.drop_unittest_checks(stmt, &why);
            // A block the parser recovered from an error is not what was written: no entry.
            let broken = ctx.errors.iter().any(|e| stmt.range().contains_range(*e));
            if let (Stmt::With(w), false) = (stmt, broken) {
                if self.pytest_check_block(w) {
                    let entry = block_entry(stmt, w);
                    self.out.push(emit::dropped(
                        ctx,
                        self.test.case,
                        &entry,
                        why.clone(),
                        vec![],
                        vec![],
                        vec![],
                    ));
                }
            }
            if let Some((_, def)) = self.asserting_helper_call(stmt) {
                for a in nested_asserts_of_body(&def.body) {
                    self.out.push(emit::dropped(
                        ctx,
                        self.test.case,
                        a,
                        why.clone().map(|why| {
                            format!("`{}` calls it, and {why}", ctx.map.snippet(stmt.range()))
                        }),
                        vec![],
                        vec![Shape::HelperAssertion],
                        vec![],
                    ));
                }
            }
            return;
        }
        if let Some((call, def)) = self.asserting_helper_call(stmt) {
            self.decide_in_helper(stmt, call, def, solution_names);
            // For what runs after it, the call is a check that every assert of it passes.
            let test = self.test;
            let mut item = items::statement(ctx, stmt, &|n| test.is_local(n));
            item.fold = Ok(items::Piece::HelperCheck(call));
            item.kind = items::Kind::Assert;
            item.inert = false;
            self.push(item);
            return;
        }
        if let Some(this) = self.unittest_instance() {
            if let Some(call) = self.unittest_check(stmt) {
                let decided = self.decide_unittest_check(stmt, call, solution_names);
                ctx.spend(&decided);
                self.out.push(decided);
            } else if let Some((w, item)) = match stmt {
                Stmt::With(w) => {
                    items::raises_block(w, this, &|n| self.test.is_local(n)).map(|item| (w, item))
                }
                _ => None,
            } {
                // The block is a check, and an item later checks replay (see `items::Raises`).
                self.push(item);
                let entry = statement_entry(stmt, &w.items[0].context_expr);
                let entry = ast::StmtAssert {
                    range: w.items[0].context_expr.range(),
                    ..entry
                };
                let decided = self.decide_unittest_block(&entry, solution_names);
                ctx.spend(&decided);
                self.out.push(decided);
                return;
            } else if let Some(why) = container_reason(ctx, stmt) {
                self.drop_unittest_checks(stmt, &why);
            }
        }
        if let Stmt::With(w) = stmt {
            if self.pytest_check_block(w) {
                if let Some(item) = self.pytest_raises(stmt, w) {
                    // The block is a check, and an item later checks replay (`items::Raises`).
                    self.push(item);
                    let entry = block_entry(stmt, w);
                    let decided = self.decide_unittest_block(&entry, solution_names);
                    ctx.spend(&decided);
                    self.out.push(decided);
                    return;
                }
                // Never silent: the block is a check pytest makes, dropped here.
                let range = w.items[0].context_expr.range();
                let entry = block_entry(stmt, w);
                self.out.push(emit::dropped(
                    ctx,
                    self.test.case,
                    &entry,
                    items::raises_rule(ctx, w, |n| self.reads_after(stmt, n))
                        .unwrap_or(Raises::RaisesArguments)
                        .because(format!(
                        "`with {}` on line {} checks what its block raises or warns; only `pytest.raises(E[, match=…])` over expression statements, whose `as` name nothing reads after, is written as an expression",
                        ctx.map.snippet(range),
                        ctx.map.line(range.start())
                    )),
                    vec![],
                    vec![],
                    vec![],
                ));
            }
        }
        match stmt {
            Stmt::Assert(a) => {
                let decided = self.decide(a, solution_names);
                ctx.spend(&decided);
                self.out.push(decided);
                let item = items::statement(ctx, stmt, &|n| self.test.is_local(n));
                self.push(item);
            }
            Stmt::Return(_) | Stmt::Raise(_) => {
                self.unreachable = Some(Statements::CodeAfterReturn.because(format!(
                    "it comes after `{}` on line {}, so pytest never runs it",
                    ctx.map.snippet(stmt.range()),
                    ctx.map.line(stmt.range().start())
                )));
            }
            _ => self.other_statement(stmt, solution_names),
        }
    }

    /// Any statement but an assert, `return` or `raise`: the asserts nested in it are dropped, and
    /// it becomes an item (unless it only binds an alias of the solution).
    fn other_statement(&mut self, stmt: &'a Stmt, solution_names: &mut Vec<String>) {
        let ctx = self.ctx;
        let test = self.test;
        let mut item = items::statement(ctx, stmt, &|n| test.is_local(n));
        let folded_loop = match (stmt, &item.fold) {
            (Stmt::For(f), Ok(_)) => Some(f),
            _ => None,
        };
        if folded_loop.is_none() {
            if let Some(why) = container_reason(ctx, stmt) {
                // A loop that does not fold: the rule is that of what stops it.
                let why = match (stmt, &item.fold) {
                    (Stmt::For(_), Err(items::Blocker::Reason(b))) if !b.text.is_empty() => {
                        b.clone().map(|b| format!("{}; {b}", why.text))
                    }
                    _ => why,
                };
                self.drop_nested(stmt, &why);
            }
        }
        if is_pytest_exit(ctx, stmt) {
            self.unreachable = Some(Statements::TestExitsEarly.because(format!(
                "`{}` on line {} ends (or may end) the test before it",
                ctx.map.snippet(stmt.range()),
                ctx.map.line(stmt.range().start())
            )));
        }
        if resolve::is_alias_stmt(stmt, &self.test.aliases) {
            return;
        }
        // A name a lambda, generator or nested function reads when it runs (late binding): every
        // binding of it matters, whoever reads it first.
        item.inert = effects::stmt_is_inert(stmt, &|n| is_bound(ctx, test, &self.bound, n), &|n| {
            is_builtin(ctx, n)
        }) && !item.defs.iter().any(|d| self.deferred.contains(d.as_str()));
        self.push(item);
        if let Some(f) = folded_loop {
            self.decide_in_loop(f, solution_names);
        }
    }

    /// The asserts inside a `for` loop whose body folds (the loop is the last item): each is kept
    /// as the loop replayed with every assert of its body (see `items::Piece::Loop`), where pytest
    /// certainly runs it: every loop around it iterates something that is not empty. A loop over
    /// an empty iterable never runs its asserts, which then are neither passed nor failed.
    fn decide_in_loop(&mut self, f: &'a ast::StmtFor, solution_names: &mut Vec<String>) {
        let ctx = self.ctx;
        let loops = loops_around_asserts(f);
        for (a, around) in loops {
            let mut fresh = Vec::new();
            // Locals bound before the outermost loop may change inside it: only that loop reads them.
            let empty = around
                .iter()
                .enumerate()
                .find(|(depth, l)| {
                    let probe = Probe {
                        ctx,
                        test: self.test,
                        items: (*depth == 0).then_some(self.items.as_slice()),
                    };
                    !probe.nonempty(&l.iter, &mut fresh, 0)
                })
                .map(|(_, l)| l);
            if let Some(l) = empty {
                self.out.push(emit::dropped(
                    ctx,
                    self.test.case,
                    a,
                    Statements::AssertInPossiblyEmptyLoop.because(format!(
                        "it is inside the `for` loop on line {} over `{}`, which may be empty: then pytest never runs it, and no check can stand for an assert that does not run",
                        ctx.map.line(l.range.start()),
                        ctx.map.snippet(l.iter.range())
                    )),
                    vec![],
                    vec![],
                    vec![],
                ));
                continue;
            }
            let before = (f.range.end() - self.test.case.func.body[0].range().start()).to_usize()
                + self.prelude_chars;
            if before > MAX_REPLAY_SOURCE {
                self.out.push(emit::dropped(
                    ctx,
                    self.test.case,
                    a,
                    Statements::ReplayTooLong.because(format!(
                        "the test runs {before} characters of code up to the end of its loop; replaying all of that inside one expression is more than this extractor writes ({MAX_REPLAY_SOURCE})"
                    )),
                    vec![],
                    vec![],
                    vec![],
                ));
                continue;
            }
            let decided =
                assertion::in_loop(ctx, self.test, a, &self.items, &fresh, solution_names);
            let go_on = ctx.spend(&decided);
            self.out.push(decided);
            if !go_on {
                return;
            }
        }
    }

    /// `stmt` calls a helper of the test file whose body asserts (`check(f)`, HumanEval's form):
    /// the call, and the helper's `def`.
    fn asserting_helper_call(
        &self,
        stmt: &'a Stmt,
    ) -> Option<(&'a Expr, &'a ast::StmtFunctionDef)> {
        let Stmt::Expr(e) = stmt else { return None };
        let Expr::Call(call) = e.value.as_ref() else {
            return None;
        };
        let Expr::Name(n) = call.func.as_ref() else {
            return None;
        };
        let name = n.id.as_str();
        // After `from solution import *` the name may be the solution's, not the file's `def`.
        if self.test.locals.contains(name)
            || self.test.aliases.contains_key(name)
            || self.ctx.scope.loaders.contains(name)
            || self.ctx.scope.star_import
        {
            return None;
        }
        match self.ctx.scope.globals.get(name) {
            // A generator or coroutine function's call runs none of its body.
            Some(Global::Helper { def: Some(def), .. })
                if !def.is_async
                    && !resolve::FunctionFacts::of(def).yields
                    && !nested_asserts_of_body(&def.body).is_empty() =>
            {
                Some((e.value.as_ref(), def))
            }
            _ => None,
        }
    }

    /// The asserts of a helper the test calls as its statement `stmt`, each a check of this test
    /// (see `assertion::in_helper`); those nested in the helper's control flow are dropped.
    fn decide_in_helper(
        &mut self,
        stmt: &'a Stmt,
        call: &'a Expr,
        def: &'a ast::StmtFunctionDef,
        solution_names: &mut Vec<String>,
    ) {
        let ctx = self.ctx;
        let f = self.test.case.func;
        let name = def.name.as_str();
        let line = ctx.map.line(call.start());
        let top: Vec<&ast::StmtAssert> = def
            .body
            .iter()
            .filter_map(|s| match s {
                Stmt::Assert(a) => Some(a),
                _ => None,
            })
            .collect();
        let prefix = (stmt.start() - f.body[0].start()).to_usize() + self.prelude_chars;
        for a in nested_asserts_of_body(&def.body) {
            if ctx.over_budget() {
                return;
            }
            if !top.iter().any(|t| t.range == a.range) {
                let container = def.body.iter().find(|s| s.range().contains_range(a.range));
                let why = container
                    .and_then(|s| container_reason(ctx, s))
                    .map_or_else(
                        || "it is nested in the helper's control flow".to_string(),
                        |r| r.text,
                    );
                let rule = container.map_or(Helpers::HelperAssertNested, helper_container_rule);
                self.out.push(emit::dropped(
                    ctx,
                    self.test.case,
                    a,
                    rule.because(format!(
                        "the test calls `{name}` on line {line}, and in `{name}` {why}"
                    )),
                    vec![],
                    vec![Shape::HelperAssertion],
                    vec![],
                ));
                continue;
            }
            let before = prefix + (a.start() - def.body[0].start()).to_usize();
            let decided = if before > MAX_REPLAY_SOURCE {
                emit::dropped(
                    ctx,
                    self.test.case,
                    a,
                    Statements::ReplayTooLong.because(format!(
                        "the test calls `{name}` on line {line}, and runs {before} characters of code before this assert of it; replaying all of that inside one expression is more than this extractor writes ({MAX_REPLAY_SOURCE})"
                    )),
                    vec![],
                    vec![Shape::HelperAssertion],
                    vec![],
                )
            } else {
                assertion::in_helper(ctx, self.test, a, call, def, &self.items, solution_names)
            };
            ctx.spend(&decided);
            self.out.push(decided);
        }
    }

    /// The name of a unittest test's instance (`self`), for a unittest case.
    fn unittest_instance(&self) -> Option<&'a str> {
        let f = self.test.case.func;
        self.test
            .case
            .unittest
            .then(|| f.parameters.args.first().map(|p| p.parameter.name.as_str()))
            .flatten()
    }

    /// `stmt` is `self.assertX(…)`, a check unittest makes: the call.
    fn unittest_check(&self, stmt: &'a Stmt) -> Option<&'a Expr> {
        let this = self.unittest_instance()?;
        match stmt {
            Stmt::Expr(e) => {
                crate::unittest::statement_check(&e.value, this).map(|_| e.value.as_ref())
            }
            _ => None,
        }
    }

    /// A top-level unittest check (see `assertion::unittest_check`), or dropped when replaying what
    /// runs before it is too long.
    fn decide_unittest_check(
        &self,
        stmt: &'a Stmt,
        call: &'a Expr,
        solution_names: &mut Vec<String>,
    ) -> Assertion {
        let entry = statement_entry(stmt, call);
        let f = self.test.case.func;
        let before = (stmt.start() - f.body[0].start()).to_usize() + self.prelude_chars;
        if before > MAX_REPLAY_SOURCE {
            return emit::dropped(
                self.ctx,
                self.test.case,
                &entry,
                Statements::ReplayTooLong.because(format!(
                    "the test runs {before} characters of code before it; replaying all of that inside one expression is more than this extractor writes ({MAX_REPLAY_SOURCE})"
                )),
                vec![],
                vec![],
                vec![],
            );
        }
        assertion::unittest_check(
            self.ctx,
            self.test,
            &entry,
            call,
            &self.items,
            solution_names,
        )
    }

    /// Whether a `with` statement's one context is `pytest.raises`, `pytest.warns` or
    /// `pytest.deprecated_call`: a check pytest makes.
    fn pytest_check_block(&self, w: &ast::StmtWith) -> bool {
        w.items.iter().any(|i| {
            matches!(
                self.ctx.scope.pytest_path(&i.context_expr).as_deref(),
                Some("pytest.raises" | "pytest.warns" | "pytest.deprecated_call")
            )
        })
    }

    /// `with pytest.raises(E):` as a check (`items::pytest_raises_block`), when nothing after it
    /// reads its `as` name.
    fn pytest_raises(&self, stmt: &'a Stmt, w: &'a ast::StmtWith) -> Option<Item<'a>> {
        if let Some(Expr::Name(n)) = w.items.first().and_then(|i| i.optional_vars.as_deref()) {
            if self.reads_after(stmt, n.id.as_str()) {
                return None;
            }
        }
        let test = self.test;
        items::pytest_raises_block(self.ctx, w, &|n| test.is_local(n))
    }

    /// Whether the test reads `name` after its statement `stmt`.
    fn reads_after(&self, stmt: &Stmt, name: &str) -> bool {
        let f = self.test.case.func;
        let at = f
            .body
            .iter()
            .position(|s| s.start() >= stmt.end())
            .unwrap_or(f.body.len());
        ruff_python_ast::helpers::any_over_body(
            &f.body[at..],
            &|e: &Expr| matches!(e, Expr::Name(m) if m.id.as_str() == name),
        )
    }

    /// A unittest raises block that is the last item: the check is that item (see
    /// `items::Raises`), or dropped when replaying what runs before it is too long.
    fn decide_unittest_block(
        &self,
        entry: &ast::StmtAssert,
        solution_names: &mut Vec<String>,
    ) -> Assertion {
        let f = self.test.case.func;
        let before = (entry.range.end() - f.body[0].start()).to_usize() + self.prelude_chars;
        if before > MAX_REPLAY_SOURCE {
            return emit::dropped(
                self.ctx,
                self.test.case,
                entry,
                Statements::ReplayTooLong.because(format!(
                    "the test runs {before} characters of code up to it; replaying all of that inside one expression is more than this extractor writes ({MAX_REPLAY_SOURCE})"
                )),
                vec![],
                vec![],
                vec![],
            );
        }
        assertion::in_loop(self.ctx, self.test, entry, &self.items, &[], solution_names)
    }

    /// Drop every unittest check nested in `stmt` (a call in a block, a `with self.assertRaises`).
    fn drop_unittest_checks(&mut self, stmt: &Stmt, why: &Reason) {
        let Some(this) = self.unittest_instance() else {
            return;
        };
        for (range, method) in crate::unittest::nested_checks(stmt, this) {
            let why = match stmt {
                Stmt::With(w) if w.items.iter().any(|i| i.context_expr.range() == range) => {
                    Raises::UnittestRaisesBlock.because(format!(
                        "`with self.{method}(…)` on line {} checks what its block does; a `with` block is not flattened yet",
                        self.ctx.map.line(range.start())
                    ))
                }
                _ => why.clone(),
            };
            let entry = ast::StmtAssert {
                node_index: Default::default(),
                range,
                test: Box::new(Expr::NoneLiteral(ast::ExprNoneLiteral {
                    node_index: Default::default(),
                    range,
                })),
                msg: None,
            };
            self.out.push(emit::dropped(
                self.ctx,
                self.test.case,
                &entry,
                why,
                vec![],
                vec![],
                vec![],
            ));
        }
    }

    fn push(&mut self, item: Item<'a>) {
        self.bound.after(&item);
        self.items.push(item);
    }

    /// Drop every assert inside `stmt` (itself included), for the same reason.
    fn drop_nested(&mut self, stmt: &Stmt, why: &Reason) {
        for a in nested_asserts(stmt) {
            self.out.push(emit::dropped(
                self.ctx,
                self.test.case,
                a,
                why.clone(),
                vec![],
                vec![],
                vec![],
            ));
        }
    }

    /// A top-level assert: dropped if replaying what runs before it is too long, else decided.
    fn decide(&self, a: &ast::StmtAssert, solution_names: &mut Vec<String>) -> Assertion {
        let f = self.test.case.func;
        let before = (a.range.start() - f.body[0].range().start()).to_usize() + self.prelude_chars;
        if before > MAX_REPLAY_SOURCE {
            return emit::dropped(
                self.ctx,
                self.test.case,
                a,
                Statements::ReplayTooLong.because(format!(
                    "the test runs {before} characters of code before it; replaying all of that inside one expression is more than this extractor writes ({MAX_REPLAY_SOURCE})"
                )),
                vec![],
                vec![],
                vec![],
            );
        }
        assertion::assertion(self.ctx, self.test, a, &self.items, solution_names)
    }
}

/// Locals the test reads late: inside a lambda, a generator or comprehension body, or a nested
/// function, where the read happens when that code runs, not where it is written.
fn deferred_reads(f: &ast::StmtFunctionDef, test: &Test) -> HashSet<String> {
    struct Late<'t, 'c, 'a> {
        test: &'t Test<'c, 'a>,
        depth: usize,
        out: HashSet<String>,
    }
    impl<'e> Visitor<'e> for Late<'_, '_, '_> {
        fn visit_stmt(&mut self, stmt: &'e Stmt) {
            let nested = matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_));
            self.depth += usize::from(nested);
            ruff_python_ast::visitor::walk_stmt(self, stmt);
            self.depth -= usize::from(nested);
        }
        fn visit_expr(&mut self, expr: &'e Expr) {
            let late = matches!(
                expr,
                Expr::Lambda(_)
                    | Expr::Generator(_)
                    | Expr::ListComp(_)
                    | Expr::SetComp(_)
                    | Expr::DictComp(_)
            );
            if let Expr::Name(n) = expr {
                if self.depth > 0 && self.test.locals.contains(n.id.as_str()) {
                    self.out.insert(n.id.to_string());
                }
            }
            self.depth += usize::from(late);
            ruff_python_ast::visitor::walk_expr(self, expr);
            self.depth -= usize::from(late);
        }
    }
    let mut late = Late {
        test,
        depth: 0,
        out: HashSet::default(),
    };
    for stmt in &f.body {
        late.visit_stmt(stmt);
    }
    late.out
}

/// Whether a name is certainly bound at this point of the test.
fn is_bound(ctx: &Ctx, test: &Test, bound: &Bound, n: &str) -> bool {
    if test.aliases.contains_key(n) {
        true
    } else if test.locals.contains(n) {
        bound.names.contains(n)
    } else {
        is_global_bound(ctx, n)
    }
}

/// Whether a module-level name (or builtin) is certainly bound when a test runs.
fn is_global_bound(ctx: &Ctx, n: &str) -> bool {
    match ctx.scope.globals.get(n) {
        Some(Global::Computed { .. }) => false,
        Some(_) => true,
        None => is_builtin(ctx, n),
    }
}

fn is_builtin(ctx: &Ctx, n: &str) -> bool {
    !ctx.scope.globals.contains_key(n)
        && !ctx.scope.star_import
        && ruff_python_stdlib::builtins::is_python_builtin(n, 14, false)
}

/// Why no assert of this test can be kept, if something about the whole test says so.
fn whole_test_reason(ctx: &Ctx, test: &Test) -> Option<Reason> {
    let case = test.case;
    let f = case.func;
    if let Some(name) = reserved_name(f).or_else(|| {
        ctx.reserved_global
            .get_or_init(|| {
                ctx.scope
                    .globals
                    .keys()
                    .filter(|n| n.starts_with(RESERVED_PREFIX))
                    .min()
                    .cloned()
            })
            .clone()
    }) {
        return Some(Statements::ReservedName.because(format!(
            "the file uses `{name}`, a name the extractor reserves for its own temporaries (`{RESERVED_PREFIX}…`): a check could read the wrong value"
        )));
    }
    if let Some(error) = ctx.errors.iter().find(|e| {
        through_line_end(ctx, f.range).contains_inclusive(e.start())
            || case
                .param_ranges
                .iter()
                .any(|r| r.contains_inclusive(e.start()))
    }) {
        return Some(Statements::SyntaxErrorInTest.because(format!(
            "the test has a syntax error on line {}: what the parser recovered is not what was written",
            ctx.map.line(error.start())
        )));
    }
    if let Some(line) = ctx.scope.pytest_before_star {
        return Some(Statements::PytestBeforeStarImport.because(format!(
            "`pytest` is imported before `from solution import *` on line {line}, which may replace it with whatever the candidate exports: the test's marks, fixtures and raises blocks are then the candidate's"
        )));
    }
    if let Some((line, why)) = &ctx.scope.module_skip {
        return Some(
            why.clone()
                .map(|w| format!("{w} (line {line}): pytest may skip every test of the file")),
        );
    }
    if let Some(call) = find_call(f, |e| {
        ctx.scope
            .pytest_path(e)
            .is_some_and(|p| PYTEST_SKIPS.contains(&p.as_str()))
    }) {
        return Some(Statements::TestCallsSkip.because(format!(
            "the test calls `{}` on line {}: pytest then reports the whole test skipped or xfailed, so none of its asserts is a passing check",
            ctx.map.snippet(call),
            ctx.map.line(call.start())
        )));
    }
    if let Some(raise) = raises_skip(f) {
        return Some(Statements::TestRaisesSkip.because(format!(
            "the test raises `{}` on line {}: pytest then reports the whole test skipped, so none of its checks is a passing check",
            ctx.map.snippet(raise),
            ctx.map.line(raise.start())
        )));
    }
    if let Some((call, helper)) = skip_in_callees(ctx, f) {
        return Some(Helpers::HelperCallsSkip.because(format!(
            "the test calls `{helper}`, which calls `{}` on line {}: pytest then reports the whole test skipped or xfailed, so none of its asserts is a passing check",
            ctx.map.snippet(call),
            ctx.map.line(call.start())
        )));
    }
    let loads = resolve::loader_calls(ctx, f);
    let uses_module_level = uses_module_level_solution(ctx, test);
    if loads.len() + usize::from(uses_module_level) > 1 {
        let at = loads
            .get(usize::from(!uses_module_level)..)
            .and_then(|l| l.first())
            .copied()
            .unwrap_or(f.range);
        return Some(Statements::SolutionLoadedTwice.because(format!(
            "the test loads the solution more than once (again on line {}): each load is a separate module, which one namespace cannot stand for",
            ctx.map.line(at.start())
        )));
    }
    None
}

/// A `pytest.skip`/`xfail`/`importorskip` call in a function of the test file that the test
/// reaches by name (through helpers calling helpers): the call, and the helper the test names.
fn skip_in_callees(ctx: &Ctx, f: &ast::StmtFunctionDef) -> Option<(TextRange, String)> {
    let mut seen: HashSet<&str> = HashSet::default();
    let mut queue: Vec<(&ast::StmtFunctionDef, Option<String>)> = vec![(f, None)];
    while let Some((def, via)) = queue.pop() {
        if let Some(via) = &via {
            let found = find_call(def, |e| {
                ctx.scope
                    .pytest_path(e)
                    .is_some_and(|p| PYTEST_SKIPS.contains(&p.as_str()))
            });
            if let Some(call) = found {
                return Some((call, via.clone()));
            }
        }
        for name in called_names(def) {
            if seen.len() > 64 || !seen.insert(name) {
                continue;
            }
            if let Some(Global::Helper { def: Some(d), .. }) = ctx.scope.globals.get(name) {
                queue.push((d, Some(via.clone().unwrap_or_else(|| name.to_string()))));
            }
        }
    }
    None
}

/// A `raise` of unittest's `SkipTest` (or pytest's skip exception) anywhere in the test.
fn raises_skip(f: &ast::StmtFunctionDef) -> Option<TextRange> {
    struct Find(Option<TextRange>);
    impl<'a> Visitor<'a> for Find {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if let Stmt::Raise(r) = stmt {
                let exc = r.exc.as_deref().map(|e| match e {
                    Expr::Call(c) => c.func.as_ref(),
                    other => other,
                });
                let named = |e: &Expr| match e {
                    Expr::Name(n) => n.id.as_str() == "SkipTest",
                    Expr::Attribute(a) => {
                        a.attr.as_str() == "SkipTest"
                            || (a.attr.as_str() == "Exception"
                                && matches!(a.value.as_ref(), Expr::Attribute(s) if s.attr.as_str() == "skip"))
                    }
                    _ => false,
                };
                if exc.is_some_and(named) {
                    self.0.get_or_insert(r.range);
                }
            }
            ruff_python_ast::visitor::walk_stmt(self, stmt);
        }
    }
    let mut find = Find(None);
    for stmt in &f.body {
        find.visit_stmt(stmt);
    }
    find.0
}

/// The names a function's body calls (`name(…)`).
fn called_names(f: &ast::StmtFunctionDef) -> Vec<&str> {
    struct Calls<'a>(Vec<&'a str>);
    impl<'a> Visitor<'a> for Calls<'a> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Call(call) = expr {
                if let Expr::Name(n) = call.func.as_ref() {
                    self.0.push(n.id.as_str());
                }
            }
            ruff_python_ast::visitor::walk_expr(self, expr);
        }
    }
    let mut calls = Calls(Vec::new());
    for stmt in &f.body {
        calls.visit_stmt(stmt);
    }
    calls.0
}

/// Whether the test reads a name that the file binds to the solution module (or a name of it) at
/// module level: the module pytest imported once for the whole file.
fn uses_module_level_solution(ctx: &Ctx, test: &Test) -> bool {
    struct Uses<'c, 's, 'a, 't> {
        ctx: &'c Ctx<'s, 'a>,
        test: &'t Test<'t, 'a>,
        found: bool,
    }
    impl<'e> Visitor<'e> for Uses<'_, '_, '_, '_> {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Name(n) = expr {
                let name = n.id.as_str();
                if !self.test.locals.contains(name)
                    && matches!(
                        self.ctx.scope.globals.get(name),
                        Some(Global::SolutionModule | Global::SolutionName { .. })
                    )
                {
                    self.found = true;
                }
            }
            ruff_python_ast::visitor::walk_expr(self, expr);
        }
    }
    let mut uses = Uses {
        ctx,
        test,
        found: false,
    };
    for stmt in &test.case.func.body {
        uses.visit_stmt(stmt);
    }
    uses.found
}

/// The first call anywhere in the function body for which `pred(call)` holds.
/// The prefix of the temporaries a kept expression binds (`_bx_p0`, `_bx_raised`, `_bx_t`).
const RESERVED_PREFIX: &str = "_bx_";

/// A name the test's code uses that starts with [`RESERVED_PREFIX`].
fn reserved_name(f: &ast::StmtFunctionDef) -> Option<String> {
    struct Find(Option<String>);
    impl<'e> Visitor<'e> for Find {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Name(n) = expr {
                if self.0.is_none() && n.id.starts_with(RESERVED_PREFIX) {
                    self.0 = Some(n.id.to_string());
                }
            }
            ruff_python_ast::visitor::walk_expr(self, expr);
        }
        fn visit_parameter(&mut self, p: &'e ast::Parameter) {
            if self.0.is_none() && p.name.starts_with(RESERVED_PREFIX) {
                self.0 = Some(p.name.to_string());
            }
        }
    }
    let mut find = Find(None);
    find.visit_parameters(&f.parameters);
    for stmt in &f.body {
        find.visit_stmt(stmt);
    }
    find.0
}

fn find_call(f: &ast::StmtFunctionDef, pred: impl Fn(&Expr) -> bool) -> Option<TextRange> {
    struct Find<P> {
        pred: P,
        found: Option<TextRange>,
    }
    impl<'e, P: Fn(&Expr) -> bool> Visitor<'e> for Find<P> {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if self.found.is_none() {
                if let Expr::Call(call) = expr {
                    if (self.pred)(&call.func) || (self.pred)(expr) {
                        self.found = Some(call.range());
                        return;
                    }
                }
                ruff_python_ast::visitor::walk_expr(self, expr);
            }
        }
    }
    let mut find = Find { pred, found: None };
    for stmt in &f.body {
        find.visit_stmt(stmt);
    }
    find.found
}

/// A range extended to the end of its last line: an error the parser reports on the newline
/// after a statement (`assert f(1) ==`) belongs to that statement.
fn through_line_end(ctx: &Ctx, range: TextRange) -> TextRange {
    let rest = &ctx.map.source[range.end().to_usize()..];
    let len = rest.find(['\n', '\r']).map_or(rest.len(), |i| i + 1);
    TextRange::new(
        range.start(),
        range.end() + ruff_text_size::TextSize::new(len as u32),
    )
}

/// Why asserts inside this compound statement are never kept, if it is one.
fn container_reason(ctx: &Ctx, stmt: &Stmt) -> Option<Reason> {
    let line = ctx.map.line(stmt.range().start());
    Some(match stmt {
        Stmt::For(_) => Statements::AssertInForLoop.because(format!("it is inside the `for` loop on line {line}: pytest runs it once per iteration, or never")),
        Stmt::While(_) => Statements::AssertInWhileLoop.because(format!("it is inside the `while` loop on line {line}: pytest runs it once per iteration, or never")),
        Stmt::If(_) => Statements::AssertInIf.because(format!("it is inside the `if` on line {line}: pytest runs it only when that branch is taken")),
        Stmt::With(w) => {
            let raises = w.items.iter().any(|i| {
                matches!(ctx.scope.pytest_path(&i.context_expr).as_deref(), Some("pytest.raises" | "pytest.warns" | "pytest.deprecated_call"))
            });
            if raises {
                Raises::AssertInRaisesBlock.because(format!("it is inside `{}` on line {line}: pytest expects that block to raise or warn", ctx.map.snippet(w.items[0].context_expr.range())))
            } else {
                Statements::AssertInWithBlock.because(format!("it is inside the `with` block on line {line}, whose context manager may change what it sees or swallow its failure"))
            }
        }
        Stmt::Try(_) => Statements::AssertInTry.because(format!("it is inside the `try` on line {line}: an exception may be caught or a handler may run instead")),
        Stmt::Match(_) => Statements::AssertInMatch.because(format!("it is inside the `match` on line {line}: pytest runs it only when that case matches")),
        Stmt::FunctionDef(d) => Statements::AssertInNestedDefinition.because(format!("it is inside the nested function `{}` (line {line}), which runs only if something calls it", d.name)),
        Stmt::ClassDef(c) => Statements::AssertInNestedDefinition.because(format!("it is inside the class `{}` (line {line}) defined in the test", c.name)),
        _ => return None,
    })
}

/// The rule for an assert of a helper the test calls that sits inside the helper's statement
/// `stmt` (a loop, a branch, a block).
fn helper_container_rule(stmt: &Stmt) -> Helpers {
    match stmt {
        Stmt::For(_) | Stmt::While(_) => Helpers::HelperAssertInLoop,
        Stmt::If(_) | Stmt::Match(_) => Helpers::HelperAssertInBranch,
        _ => Helpers::HelperAssertNested,
    }
}

/// Every assert inside a loop whose body folds (only statements and nested loops), with the loops
/// around it, outermost first.
fn loops_around_asserts(f: &ast::StmtFor) -> Vec<(&ast::StmtAssert, Vec<&ast::StmtFor>)> {
    fn walk<'a>(
        f: &'a ast::StmtFor,
        around: &mut Vec<&'a ast::StmtFor>,
        out: &mut Vec<(&'a ast::StmtAssert, Vec<&'a ast::StmtFor>)>,
    ) {
        around.push(f);
        for s in &f.body {
            match s {
                Stmt::Assert(a) => out.push((a, around.clone())),
                Stmt::For(inner) => walk(inner, around, out),
                _ => {}
            }
        }
        around.pop();
    }
    let mut out = Vec::new();
    walk(f, &mut Vec::new(), &mut out);
    out
}

/// Proofs that a loop runs at least once. `items`: the items up to the loop (the last), whose locals
/// the loop may read as they were bound (see `untouched_local`); `None` for a nested loop, which an
/// earlier iteration of the loop around it may have changed them for.
struct Probe<'p, 's, 'a, 't> {
    ctx: &'p Ctx<'s, 'a>,
    test: &'p Test<'t, 'a>,
    items: Option<&'p [Item<'a>]>,
}

impl Probe<'_, '_, '_, '_> {
    /// Whether every item before the loop is inert (runs no user code).
    fn nothing_runs_before(&self) -> bool {
        self.items
            .and_then(|items| items.split_last())
            .is_some_and(|(_, before)| before.iter().all(|it| it.inert))
    }

    /// Whether iterating `iter` (evaluated where the loop starts) certainly yields at least once, for
    /// any solution: a non-empty display or string, `range` of literal integers with a non-empty
    /// span, `enumerate`/`reversed`/`list`/`tuple`/`sorted`/`set`/`iter` of such, `zip` of such, a
    /// concatenation of builtin sequences one of which is not empty, and the file's constants of
    /// those (collected in `fresh`: see `assertion::in_loop`). Anything else may be empty.
    fn nonempty(&self, iter: &Expr, fresh: &mut Vec<String>, depth: usize) -> bool {
        let (ctx, test) = (self.ctx, self.test);
        if depth > 8 {
            return false;
        }
        let builtin = |e: &Expr, names: &[&str]| match e {
            Expr::Name(n) => {
                names.contains(&n.id.as_str())
                    && !test.locals.contains(n.id.as_str())
                    && is_builtin(ctx, n.id.as_str())
            }
            _ => false,
        };
        match iter {
            Expr::List(l) => l.elts.iter().any(|e| !e.is_starred_expr()),
            Expr::Tuple(t) => t.elts.iter().any(|e| !e.is_starred_expr()),
            Expr::Set(t) => t.elts.iter().any(|e| !e.is_starred_expr()),
            Expr::Dict(d) => d.items.iter().any(|i| i.key.is_some()),
            Expr::StringLiteral(s) => !s.value.to_str().is_empty(),
            Expr::BytesLiteral(b) => b.value.iter().any(|p| !p.as_slice().is_empty()),
            Expr::Name(n) if test.locals.contains(n.id.as_str()) => self
                .items
                .and_then(|items| untouched_local(ctx, items, n.id.as_str()))
                .is_some_and(|value| self.nonempty(value, fresh, depth + 1)),
            Expr::Name(n) => match ctx.scope.globals.get(n.id.as_str()) {
                // A tuple, string or bytes constant cannot be emptied. A list, set or dict display
                // can, by any code that runs before the loop and reaches it (a call handed the
                // object, a closure): only when nothing before the loop in this test runs code.
                // A constant built by a call (`zip`, `iter`) may be an iterator that something
                // consumed already (a parametrize at import): never.
                Some(Global::Constant { source, .. })
                    if matches!(
                        source,
                        Expr::Tuple(_) | Expr::StringLiteral(_) | Expr::BytesLiteral(_)
                    ) || (matches!(source, Expr::List(_) | Expr::Set(_) | Expr::Dict(_))
                        && self.nothing_runs_before()) =>
                {
                    let ok = self.nonempty(source, fresh, depth + 1);
                    if ok {
                        fresh.push(n.id.to_string());
                    }
                    ok
                }
                _ => false,
            },
            Expr::Call(c)
                if c.arguments.keywords.is_empty()
                    || builtin(&c.func, &["sorted", "enumerate"]) =>
            {
                let args = &c.arguments.args;
                if args.iter().any(Expr::is_starred_expr)
                    || c.arguments.keywords.iter().any(|k| k.arg.is_none())
                {
                    return false;
                }
                if builtin(&c.func, &["range"]) {
                    let ints: Option<Vec<i128>> =
                        args.iter().map(|a| self.const_int(a, 0)).collect();
                    return match ints.as_deref() {
                        Some([stop]) => *stop > 0,
                        Some([start, stop]) => stop > start,
                        Some([start, stop, step]) => {
                            (*step > 0 && stop > start) || (*step < 0 && stop < start)
                        }
                        _ => false,
                    };
                }
                if builtin(&c.func, &["zip"]) {
                    return !args.is_empty()
                        && args.iter().all(|a| self.nonempty(a, fresh, depth + 1));
                }
                let one = match &args[..] {
                    [one] => one,
                    [one, _] if builtin(&c.func, &["enumerate"]) => one,
                    _ => return false,
                };
                builtin(
                    &c.func,
                    &[
                        "enumerate",
                        "reversed",
                        "list",
                        "tuple",
                        "sorted",
                        "set",
                        "frozenset",
                        "iter",
                    ],
                ) && self.nonempty(one, fresh, depth + 1)
            }
            Expr::BinOp(b) if b.op == ast::Operator::Add => {
                let seq = |e: &Expr| {
                    matches!(e, Expr::List(_) | Expr::Tuple(_))
                        || matches!(e, Expr::Call(c) if builtin(&c.func, &["list", "tuple"]))
                };
                seq(&b.left)
                    && seq(&b.right)
                    && (self.nonempty(&b.left, fresh, depth + 1)
                        || self.nonempty(&b.right, fresh, depth + 1))
            }
            _ => false,
        }
    }

    /// An integer the file writes with literals and its constants alone (`32 * 33`, `-95`, `SIZE`).
    fn const_int(&self, e: &Expr, depth: usize) -> Option<i128> {
        let (ctx, test) = (self.ctx, self.test);
        if depth > 8 {
            return None;
        }
        match e {
            Expr::NumberLiteral(n) => match &n.value {
                ast::Number::Int(i) => i.as_i64().map(i128::from),
                _ => None,
            },
            Expr::UnaryOp(u) => {
                let v = self.const_int(&u.operand, depth + 1)?;
                match u.op {
                    ast::UnaryOp::USub => Some(-v),
                    ast::UnaryOp::UAdd => Some(v),
                    _ => None,
                }
            }
            Expr::BinOp(b) => {
                let l = self.const_int(&b.left, depth + 1)?;
                let r = self.const_int(&b.right, depth + 1)?;
                match b.op {
                    ast::Operator::Add => l.checked_add(r),
                    ast::Operator::Sub => l.checked_sub(r),
                    ast::Operator::Mult => l.checked_mul(r),
                    _ => None,
                }
            }
            Expr::Name(n) if test.locals.contains(n.id.as_str()) => self
                .items
                .and_then(|items| untouched_local(ctx, items, n.id.as_str()))
                .and_then(|value| self.const_int(value, depth + 1)),
            Expr::Name(n) => match ctx.scope.globals.get(n.id.as_str()) {
                Some(Global::Constant { source, .. }) => self.const_int(source, depth + 1),
                _ => None,
            },
            _ => None,
        }
    }
}

/// The value a local holds where the loop (the last item) starts, when that is certain: its last
/// binding before the loop is a plain one (`x = value`, a parameter, a fixture's value), nothing
/// binds it again, and, unless the value is an immutable literal, nothing else reads it (a read may
/// hand the object to code that empties it).
fn untouched_local<'a>(ctx: &Ctx, items: &[Item<'a>], name: &str) -> Option<&'a Expr> {
    let (_, before) = items.split_last()?;
    let at = before
        .iter()
        .rposition(|it| it.defs.iter().any(|d| d.as_str() == name))?;
    let item = &before[at];
    let value = item.value?;
    let plain = matches!(
        item.kind,
        items::Kind::Assign | items::Kind::Param | items::Kind::Fixture
    ) && item.defs.len() == 1;
    let immutable = crate::names::is_immutable_literal(value);
    // A mutable value may be emptied by any code that runs after its binding: through a read that
    // hands it on, an alias, or a closure made before it was bound and called after.
    let touched = !immutable
        && before[at + 1..]
            .iter()
            .any(|it| !it.inert || it.reads.iter().any(|r| r.as_str() == name));
    // A value that reads other names is what they held where it was bound, not where the loop
    // starts (`limit = attempts; attempts = 4`): only builtins are read the same at both points.
    let reads_names = crate::names::Facts::of(value)
        .loads
        .iter()
        .any(|l| !is_builtin(ctx, l.name.as_str()));
    (plain && !touched && !reads_names).then_some(value)
}

/// A check statement as an entry reports it: an `assert` standing for the statement's range.
fn statement_entry(stmt: &Stmt, call: &Expr) -> ast::StmtAssert {
    ast::StmtAssert {
        node_index: Default::default(),
        range: stmt.range(),
        test: Box::new(call.clone()),
        msg: None,
    }
}

/// The entry a `with` block that checks (a raises block) stands for: its first item's call.
fn block_entry(stmt: &Stmt, w: &ast::StmtWith) -> ast::StmtAssert {
    ast::StmtAssert {
        range: w.items[0].context_expr.range(),
        ..statement_entry(stmt, &w.items[0].context_expr)
    }
}

/// Every assert of a function's body, in source order (nested ones included).
fn nested_asserts_of_body(body: &[Stmt]) -> Vec<&ast::StmtAssert> {
    body.iter().flat_map(nested_asserts).collect()
}

fn nested_asserts(stmt: &Stmt) -> Vec<&ast::StmtAssert> {
    #[derive(Default)]
    struct Finder<'a>(Vec<&'a ast::StmtAssert>);
    impl<'a> Visitor<'a> for Finder<'a> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if let Stmt::Assert(a) = stmt {
                self.0.push(a);
            }
            ruff_python_ast::visitor::walk_stmt(self, stmt);
        }
        fn visit_expr(&mut self, _: &'a Expr) {}
    }
    let mut finder = Finder::default();
    finder.visit_stmt(stmt);
    finder.0
}

/// `pytest.fail()` and `pytest.exit()` end the test; asserts after them never run.
fn is_pytest_exit(ctx: &Ctx, stmt: &Stmt) -> bool {
    let value = match stmt {
        Stmt::Expr(e) => e.value.as_ref(),
        Stmt::Assign(a) => a.value.as_ref(),
        _ => return false,
    };
    matches!(value, Expr::Call(_))
        && matches!(
            ctx.scope.pytest_path(value).as_deref(),
            Some("pytest.fail" | "pytest.exit")
        )
}
