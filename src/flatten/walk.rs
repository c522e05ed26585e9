//! The walk through a test's body, statement by statement, deciding each assert (and unittest
//! check) it meets.

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use super::items::{Bound, Item};
use super::loops::{loops_around_asserts, Probe};
use super::{assertion, effects, emit, is_bound, is_builtin, items, resolve, MAX_REPLAY_SOURCE};
use super::{Ctx, Test};
use crate::model::Assertion;
use crate::module::Global;
use crate::rules::{Helpers, Raises, Reason, Statements};
use crate::shape::Shape;
use crate::walk::{for_each_stmt, Scope};

/// The walk through a test's body, statement by statement: the items so far, the names they
/// certainly bound, and the assertions decided.
pub(super) struct Walk<'w, 's, 'a, 't> {
    pub(super) ctx: &'w Ctx<'s, 'a>,
    pub(super) test: &'w Test<'t, 'a>,
    /// Locals read late (see `deferred_reads`).
    pub(super) deferred: HashSet<String>,
    /// Source text of the prelude every assertion replays.
    pub(super) prelude_chars: usize,
    pub(super) items: Vec<Item<'a>>,
    pub(super) bound: Bound,
    pub(super) out: Vec<Assertion>,
    /// Why pytest never reaches the statements from here on, once something ended the test.
    pub(super) unreachable: Option<Reason>,
}

impl<'a> Walk<'_, '_, 'a, '_> {
    pub(super) fn statement(&mut self, stmt: &'a Stmt, solution_names: &mut Vec<String>) {
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
                    items::raises_rule(ctx, w, |n| self.reads_after_other_than_value(stmt, n))
                        .unwrap_or(Raises::RaisesArguments)
                        .because(format!(
                        "`with {}` on line {} checks what its block raises or warns; only `pytest.raises(E[, match=…])` over expression statements, whose `as` name the test reads after only as `.value` or `.type` if at all, is written as an expression",
                        ctx.map.snippet(range),
                        ctx.map.line(range.start())
                    )),
                    vec![],
                    vec![],
                    vec![],
                ));
            } else if let Some((entry, why)) = self.parametrized_check(stmt, w) {
                // `with expectation:` where this case's value is `pytest.raises(E)`: a check
                // pytest makes, dropped here; the block is an item as any other `with`.
                self.out.push(emit::dropped(
                    ctx,
                    self.test.case,
                    &entry,
                    why,
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
        // In a test function of the module, whose own `__qualname__` is its `def`'s name (a
        // method's depends on the class that defines it, which may not be the collected one).
        let nested = match stmt {
            Stmt::FunctionDef(d) if !test.case.is_method && !test.case.unittest => {
                let qualname = format!("{}.<locals>.{}", test.case.func.name, d.name);
                items::nested_def(ctx, d, qualname, &|n| test.is_local(n))
                    .or_else(|| super::compiled::item(ctx, d, test))
            }
            Stmt::ClassDef(c) if !test.case.is_method && !test.case.unittest => {
                let qualname = format!("{}.<locals>.{}", test.case.func.name, c.name);
                items::nested_class(ctx, c, qualname, &|n| test.is_local(n))
                    .or_else(|| super::compiled::class_item(ctx, c, test))
            }
            _ => None,
        };
        let mut item = nested.unwrap_or_else(|| items::statement(ctx, stmt, &|n| test.is_local(n)));
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
        let mut bind_target = false;
        if let Some(Expr::Name(n)) = w.items.first().and_then(|i| i.optional_vars.as_deref()) {
            if self.reads_after_other_than_value(stmt, n.id.as_str()) {
                return None;
            }
            bind_target = self.reads_after(stmt, n.id.as_str());
        }
        let test = self.test;
        items::pytest_raises_block(self.ctx, w, &|n| test.is_local(n), bind_target)
    }

    /// Whether the test, after its statement `stmt`, mentions `name` other than as `name.value` or
    /// `name.type` read (pytest's `ExceptionInfo`: the exception and its type), or reads
    /// `name.value.__traceback__` (the block's check detaches it, see the contract).
    fn reads_after_other_than_value(&self, stmt: &Stmt, name: &str) -> bool {
        use ruff_python_ast::visitor::{walk_expr, Visitor};
        struct Other<'n> {
            name: &'n str,
            found: bool,
        }
        impl<'x> Visitor<'x> for Other<'_> {
            fn visit_expr(&mut self, e: &'x Expr) {
                if self.found {
                    return;
                }
                if let Expr::Attribute(a) = e {
                    if let Expr::Attribute(inner) = a.value.as_ref() {
                        if a.attr.as_str() == "__traceback__"
                            && inner.attr.as_str() == "value"
                            && matches!(inner.value.as_ref(), Expr::Name(n) if n.id.as_str() == self.name)
                        {
                            self.found = true;
                            return;
                        }
                    }
                    if matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == self.name)
                        && a.ctx.is_load()
                        && matches!(a.attr.as_str(), "value" | "type")
                    {
                        return;
                    }
                }
                if matches!(e, Expr::Name(n) if n.id.as_str() == self.name) {
                    self.found = true;
                    return;
                }
                walk_expr(self, e);
            }
        }
        let mut other = Other { name, found: false };
        for s in self.body_after(stmt) {
            other.visit_stmt(s);
        }
        other.found
    }

    /// Whether the test reads `name` after its statement `stmt`.
    fn reads_after(&self, stmt: &Stmt, name: &str) -> bool {
        ruff_python_ast::helpers::any_over_body(
            self.body_after(stmt),
            &|e: &Expr| matches!(e, Expr::Name(m) if m.id.as_str() == name),
        )
    }

    /// The test's top-level statements after its statement `stmt`.
    fn body_after(&self, stmt: &Stmt) -> &'a [Stmt] {
        let f = self.test.case.func;
        let at = f
            .body
            .iter()
            .position(|s| s.start() >= stmt.end())
            .unwrap_or(f.body.len());
        &f.body[at..]
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
    fn drop_nested(&mut self, stmt: &'a Stmt, why: &Reason) {
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
        // The check blocks nested in it (`pytest.raises`, `warns`, `deprecated_call`, or a
        // parameter whose value is one): checks pytest makes, never silent.
        let mut blocks: Vec<(&'a Stmt, &'a ast::StmtWith)> = Vec::new();
        for_each_stmt(stmt, Scope::All, |s| {
            if let Stmt::With(w) = s {
                if !std::ptr::eq(s, stmt) {
                    blocks.push((s, w));
                }
            }
        });
        for (s, w) in blocks {
            let entry = if self.pytest_check_block(w) {
                let item = w
                    .items
                    .iter()
                    .find(|i| {
                        matches!(
                            self.ctx.scope.pytest_path(&i.context_expr).as_deref(),
                            Some("pytest.raises" | "pytest.warns" | "pytest.deprecated_call")
                        )
                    })
                    .unwrap_or(&w.items[0]);
                Some(item_entry(s, item))
            } else {
                self.parametrized_check(s, w).map(|(entry, _)| entry)
            };
            if let Some(entry) = entry {
                self.out.push(emit::dropped(
                    self.ctx,
                    self.test.case,
                    &entry,
                    why.clone(),
                    vec![],
                    vec![],
                    vec![],
                ));
            }
        }
    }

    /// `with expectation:` where `expectation` is a parameter of the test whose value in this
    /// case is `pytest.raises(…)`, `pytest.warns(…)` or `pytest.deprecated_call()` (the
    /// `does_not_raise()` pattern): the block is a check pytest makes in this case. Its entry (at
    /// the name in the `with`) and why it is dropped; `None` for a `nullcontext()` case.
    fn parametrized_check(
        &self,
        stmt: &'a Stmt,
        w: &'a ast::StmtWith,
    ) -> Option<(ast::StmtAssert, Reason)> {
        let ctx = self.ctx;
        let case = self.test.case;
        w.items.iter().find_map(|i| {
            let Expr::Name(n) = &i.context_expr else {
                return None;
            };
            let name = n.id.as_str();
            let is_parameter = case
                .func
                .parameters
                .iter()
                .any(|p| p.name().as_str() == name);
            if !is_parameter {
                return None;
            }
            let (_, value) = case.params.iter().find(|(p, _)| p == name)?;
            let path = ctx.scope.pytest_path(value)?;
            if !matches!(
                path.as_str(),
                "pytest.raises" | "pytest.warns" | "pytest.deprecated_call"
            ) {
                return None;
            }
            let line = ctx.map.line(i.context_expr.range().start());
            Some((
                item_entry(stmt, i),
                Raises::RaisesContextParameter.because(format!(
                    "`with {name}` on line {line} checks what its block raises or warns in this case: `{name}` is `{}` (line {}), made by the parametrize decorator and handed to the test; only `pytest.raises(E[, match=…])` written at the `with` itself is written as an expression",
                    ctx.map.snippet(value.range()),
                    ctx.map.line(value.range().start())
                )),
            ))
        })
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

/// The entry a check block stands for at one of its items (`expectation` in `with expectation:`).
fn item_entry(stmt: &Stmt, item: &ast::WithItem) -> ast::StmtAssert {
    ast::StmtAssert {
        range: item.context_expr.range(),
        ..statement_entry(stmt, &item.context_expr)
    }
}

/// Every assert of a function's body, in source order (nested ones included).
fn nested_asserts_of_body(body: &[Stmt]) -> Vec<&ast::StmtAssert> {
    body.iter().flat_map(nested_asserts).collect()
}

fn nested_asserts(stmt: &Stmt) -> Vec<&ast::StmtAssert> {
    let mut out = Vec::new();
    for_each_stmt(stmt, Scope::All, |s| {
        if let Stmt::Assert(a) = s {
            out.push(a);
        }
    });
    out
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
