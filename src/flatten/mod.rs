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
//! This module walks a test's body (`walk`; `loops` for the asserts inside a loop, `whole_test` for
//! what drops every assert of the test); the items before it come from `setup`, what each assert
//! replays from `replay`, and the decision for each assert from `assertion`.

mod assertion;
mod compile_source;
mod compiled;
mod conftest_replay;
mod definitions;
mod effects;
pub(crate) use effects::stmt_is_inert;
mod emit;
mod items;
mod lifetimes;
mod loops;
mod qualnames;
mod replay;
mod resolve;
mod setup;
mod walk;
mod whole_test;

use crate::sort::SharedSort as _;
use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::case::Case;
use crate::model::Assertion;
use crate::module::{BoundNames, Fixture, Global, ModuleScope, PreludeStmt};
use crate::source::SourceMap;
use items::{Bound, Item};
use resolve::Aliases;
use walk::Walk;
use whole_test::whole_test_reason;

pub(crate) use conftest_replay::{conftest_fixture, conftest_replay, namespace_replay};

/// The most source text (bytes of the test body before an assert, setup included) an assertion
/// replays. Replaying the whole prefix makes the output of a long test grow with the square of its
/// length; past this bound the assert is dropped, saying so, which keeps both the analysis and
/// each expression bounded (a test of 2,000 `put`/`assert` pairs keeps its first few hundred).
pub const MAX_REPLAY_SOURCE: usize = 16 * 1024;

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
    /// pytest's configuration sets a log level: its collection restores the root logger's level
    /// after the test file's module-level code ran (`catching_logs`).
    pub log_level_set: bool,
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
    // No `async for` reaches a kept fold (it was the rule S009): a test that holds one is dropped
    // whole, as an `async def` test (C006) or for the syntax error it is in a plain `def`.
    debug_assert!(
        case.not_run.is_some()
            || walk.unreachable.is_some()
            || !crate::walk::any_stmt(
                &f.body[..],
                crate::walk::Scope::Own,
                |s| matches!(s, Stmt::For(l) if l.is_async)
            ),
        "an `async for` in `{}`, which is not dropped whole",
        f.name
    );
    for stmt in &f.body {
        walk.statement(stmt, solution_names);
    }
    let mut out = walk.out;
    out.sort_shared_by_key(|a| a.span.start);
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
