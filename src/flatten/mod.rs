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

mod effects;
mod emit;
mod imports;
mod items;
mod resolve;

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::collect::Case;
use crate::model::{Assertion, Origin, OriginRole};
use crate::module::{BoundNames, Fixture, Global, ModuleScope, PreludeStmt};
use crate::names::{self, Facts, Ident, Replacement};
use crate::shape::Shape;
use crate::source::SourceMap;
use items::{Aliases, Bound, Item, Kind, Piece};
use resolve::Resolution;

/// pytest's own fixtures: requested by name, provided by pytest, never reproducible in an `eval`.
/// Requesting one changes nothing an assertion reads until the test uses it.
const PYTEST_FIXTURES: &[&str] = &[
    "request",
    "monkeypatch",
    "tmp_path",
    "tmpdir",
    "tmp_path_factory",
    "tmpdir_factory",
    "capsys",
    "capfd",
    "capsysbinary",
    "capfdbinary",
    "caplog",
    "recwarn",
    "pytestconfig",
    "record_property",
    "record_xml_attribute",
    "record_testsuite_property",
    "cache",
    "doctest_namespace",
    "subtests",
];

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
    let mut bound_names = BoundNames::default();
    for stmt in &f.body {
        bound_names.visit_stmt(stmt);
    }
    let mut locals: HashSet<String> = bound_names.names.iter().cloned().collect();
    locals.extend(f.parameters.iter().map(|p| p.name().to_string()));
    // The test's own locals: a module-level name the prelude binds or reads under one of these
    // names would be the same local of the fold.
    let own = locals.clone();
    locals.extend(ctx.scope.prelude_names.iter().cloned());
    let mut test = Test {
        case,
        locals,
        aliases: resolve::local_aliases(ctx, f),
    };
    let deferred = deferred_reads(f, &test);
    let mut items: Vec<Item> = Vec::new();
    // A test that loads the solution itself (a loader call, a fixture returning the module) reads a
    // module other than the one the file's import-time code worked on.
    let fresh_load = resolve::loader_calls(ctx, f)
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
        });
    setup_items(ctx, &mut test, &own, fresh_load.as_deref(), &mut items);
    // The import-time code every assertion replays counts towards its bound.
    let prelude_chars: usize = ctx
        .scope
        .prelude
        .iter()
        .filter(|p| !matches!(p, PreludeStmt::Stmt { inert: true, .. }))
        .map(|p| p.range().len().to_usize())
        .sum();
    let mut bound = Bound::default();
    for item in &items {
        bound.after(item);
    }

    let mut out = Vec::new();
    let mut unreachable: Option<String> = whole_test_reason(ctx, &test);
    for stmt in &f.body {
        if let Some(why) = &unreachable {
            for a in nested_asserts(stmt) {
                out.push(emit::dropped(
                    ctx,
                    case,
                    a,
                    why.clone(),
                    vec![],
                    vec![],
                    vec![],
                ));
            }
            continue;
        }
        match stmt {
            Stmt::Assert(a) => {
                let before =
                    (a.range.start() - f.body[0].range().start()).to_usize() + prelude_chars;
                if before > MAX_REPLAY_SOURCE {
                    out.push(emit::dropped(
                        ctx,
                        case,
                        a,
                        format!(
                            "the test runs {before} characters of code before it; replaying all of that inside one expression is more than this extractor writes ({MAX_REPLAY_SOURCE})"
                        ),
                        vec![],
                        vec![],
                        vec![],
                    ));
                } else {
                    out.push(assertion(ctx, &test, a, &items, solution_names));
                }
                let item = items::statement(ctx, stmt, &|n| test.is_local(n));
                bound.after(&item);
                items.push(item);
            }
            Stmt::Return(_) | Stmt::Raise(_) => {
                unreachable = Some(format!(
                    "it comes after `{}` on line {}, so pytest never runs it",
                    ctx.map.snippet(stmt.range()),
                    ctx.map.line(stmt.range().start())
                ));
            }
            _ => {
                if let Some(why) = container_reason(ctx, stmt) {
                    for a in nested_asserts(stmt) {
                        out.push(emit::dropped(
                            ctx,
                            case,
                            a,
                            why.clone(),
                            vec![],
                            vec![],
                            vec![],
                        ));
                    }
                }
                if is_pytest_exit(ctx, stmt) {
                    unreachable = Some(format!(
                        "`{}` on line {} ends (or may end) the test before it",
                        ctx.map.snippet(stmt.range()),
                        ctx.map.line(stmt.range().start())
                    ));
                }
                if resolve::is_alias_stmt(stmt, &test.aliases) {
                    continue;
                }
                let mut item = items::statement(ctx, stmt, &|n| test.is_local(n));
                // A name a lambda, generator or nested function reads when it runs (late binding):
                // every binding of it matters, whoever reads it first.
                item.inert =
                    effects::stmt_is_inert(stmt, &|n| is_bound(ctx, &test, &bound, n), &|n| {
                        is_builtin(ctx, n)
                    }) && !item.defs.iter().any(|d| deferred.contains(d.as_str()));
                bound.after(&item);
                items.push(item);
            }
        }
    }
    out.sort_by_key(|a| a.span.start);
    out
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
fn whole_test_reason(ctx: &Ctx, test: &Test) -> Option<String> {
    let case = test.case;
    let f = case.func;
    if let Some(error) = ctx.errors.iter().find(|e| {
        through_line_end(ctx, f.range).contains_inclusive(e.start())
            || case
                .param_ranges
                .iter()
                .any(|r| r.contains_inclusive(e.start()))
    }) {
        return Some(format!(
            "the test has a syntax error on line {}: what the parser recovered is not what was written",
            ctx.map.line(error.start())
        ));
    }
    if let Some((line, why)) = &ctx.scope.module_skip {
        return Some(format!(
            "{why} (line {line}): pytest may skip every test of the file"
        ));
    }
    if let Some(call) = find_call(f, |e| {
        ctx.scope
            .pytest_path(e)
            .is_some_and(|p| PYTEST_SKIPS.contains(&p.as_str()))
    }) {
        return Some(format!(
            "the test calls `{}` on line {}: pytest then reports the whole test skipped or xfailed, so none of its asserts is a passing check",
            ctx.map.snippet(call),
            ctx.map.line(call.start())
        ));
    }
    let loads = resolve::loader_calls(ctx, f);
    let uses_module_level = uses_module_level_solution(ctx, test);
    if loads.len() + usize::from(uses_module_level) > 1 {
        let at = loads
            .get(usize::from(!uses_module_level)..)
            .and_then(|l| l.first())
            .copied()
            .unwrap_or(f.range);
        return Some(format!(
            "the test loads the solution more than once (again on line {}): each load is a separate module, which one namespace cannot stand for",
            ctx.map.line(at.start())
        ));
    }
    None
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

/// Setup that runs before the test's body: module-level effects, autouse fixtures and setup
/// methods, changes to a solution module all tests share, then parameters and fixtures.
fn setup_items<'a>(
    ctx: &Ctx<'_, 'a>,
    test: &mut Test<'_, 'a>,
    own: &HashSet<String>,
    fresh_load: Option<&str>,
    items: &mut Vec<Item<'a>>,
) {
    let case = test.case;
    let f = case.func;
    // Module-level effects run before every test; any one of them blocks what follows, so the
    // first stands for all (one item per test, whatever the file's size).
    for (_, why) in ctx
        .scope
        .global_barriers
        .iter()
        .take(1)
        .chain(case.setup.iter())
    {
        items.push(items::setup(f.range, why.clone()));
    }
    prelude_items(ctx, own, fresh_load, items);
    for change in ctx
        .scope
        .shared_changes
        .iter()
        .filter(|c| c.start() < f.range.start() && !f.range.contains_range(**c))
    {
        let mut item = items::setup(
            *change,
            format!(
                "`{}` on line {} changes state every later test shares (the solution module pytest imported once, or the process: its RNG, its environment)",
                ctx.map.snippet(*change),
                ctx.map.line(change.start())
            ),
        );
        item.label = None;
        items.push(item);
    }
    let mut seen_fixtures = HashSet::default();
    for (i, p) in f.parameters.iter().enumerate() {
        let p = p.name().as_str();
        if let Some(k) = case.params.iter().position(|(n, _)| n == p) {
            // Parametrize values are evaluated at module scope, before the test.
            let value = case.params[k].1;
            let replayed = ctx
                .scope
                .prelude
                .iter()
                .enumerate()
                .find_map(|(n, p)| match p {
                    PreludeStmt::ParamList { list }
                        if list.range().contains_range(value.range()) =>
                    {
                        Some((n, *list))
                    }
                    _ => None,
                });
            let inert = effects::expr_is_inert(value, &|n| is_global_bound(ctx, n));
            if !names::is_immutable_literal(value)
                && !ctx.shared_params.borrow_mut().insert(value.range())
            {
                items.push(items::unfoldable_binding(
                    p,
                    case.param_ranges[k],
                    format!(
                        "`{p}` is the object `{}` (line {}) that pytest hands every case of the test; an earlier case may have changed it",
                        ctx.map.snippet(value.range()),
                        ctx.map.line(value.range().start())
                    ),
                    false,
                ));
                continue;
            }
            if let Some((n, list)) = replayed {
                // The list was evaluated whole at import (a prelude item): the case takes its
                // value from it by index, the object pytest hands this case.
                let temp = param_list_name(n);
                items.push(match index_in(list, value) {
                    Some(index) => Item {
                        defs: vec![Ident::from(p)],
                        reads: vec![Ident::from(temp.as_str())],
                        inert: true,
                        fold: Ok(Piece::BindIndexed(Ident::from(p), format!("{temp}{index}"))),
                        label: Some(format!("`{p}`")),
                        kind: Kind::Param,
                        role: OriginRole::Parameter,
                        ..items::setup(case.param_ranges[k], String::new())
                    },
                    None => items::unfoldable_binding(
                        p,
                        case.param_ranges[k],
                        format!(
                            "`{p}` is a value of the parametrize list on line {} that the extractor cannot take from it by index",
                            ctx.map.line(list.range().start())
                        ),
                        false,
                    ),
                });
                continue;
            }
            items.push(items::binding(
                p,
                value,
                Vec::new(),
                case.param_ranges[k],
                Kind::Param,
                OriginRole::Parameter,
                inert,
            ));
        } else if let Some((_, text, range)) = case.fixture_values.iter().find(|v| v.0 == p) {
            // A parametrized fixture's value for this case (its body run by collect): source
            // that reads only builtins, bound where the fixture runs.
            items.push(Item {
                defs: vec![Ident::from(p)],
                fold: Ok(Piece::BindIndexed(Ident::from(p), text.clone())),
                label: Some(format!("`{p}`")),
                kind: Kind::Fixture,
                role: OriginRole::Fixture,
                ..items::setup(*range, String::new())
            });
        } else if i == 0 && case.is_method {
            items.push(items::unfoldable_binding(
                p,
                f.range,
                format!("`{p}` is the test class instance; its state is set up outside this test"),
                true,
            ));
        } else if let Some(default) = f
            .parameters
            .iter_non_variadic_params()
            .find(|q| q.parameter.name.as_str() == p)
            .and_then(|q| q.default.as_deref())
        {
            // A parameter with a default is not a fixture: pytest leaves it to its default, which
            // was evaluated when the `def` ran, at import.
            let inert = effects::expr_is_inert(default, &|n| is_global_bound(ctx, n));
            items.push(items::binding(
                p,
                default,
                Vec::new(),
                default.range(),
                Kind::Param,
                OriginRole::Parameter,
                inert,
            ));
        } else if let Some((_, line)) = case.class_fixtures.iter().rev().find(|(n, _)| n == p) {
            test.locals.insert(p.to_string());
            items.push(items::unfoldable_binding(
                p,
                f.range,
                format!("`{p}` is a fixture of the test's class (line {line}), which the extractor does not replay, and its setup may change what the assertion reads"),
                false,
            ));
        } else {
            add_fixture(ctx, test, p, f.range, items, &mut seen_fixtures, 0);
        }
    }
}

/// The name a replayed parametrize list is bound to in the fold.
fn param_list_name(n: usize) -> String {
    format!("_bx_p{n}")
}

/// Where `value` sits in a parametrize list: `[k]` (the whole case) or `[k][j]` (one of several
/// argument names, from a tuple or list display).
fn index_in(list: &Expr, value: &Expr) -> Option<String> {
    let elts = match list {
        Expr::List(l) => &l.elts,
        Expr::Tuple(t) => &t.elts,
        _ => return None,
    };
    for (k, e) in elts.iter().enumerate() {
        if e.range() == value.range() {
            return Some(format!("[{k}]"));
        }
        let parts = match e {
            Expr::Tuple(t) => &t.elts[..],
            Expr::List(l) => &l.elts[..],
            // Written `(a, b,)` in the replay (`Piece::BindParams`).
            Expr::Call(c) if c.arguments.args.iter().any(|a| a.range() == value.range()) => {
                &c.arguments.args[..]
            }
            _ => continue,
        };
        if parts.iter().any(|p| matches!(p, Expr::Starred(_))) {
            return None;
        }
        if let Some(j) = parts.iter().position(|p| p.range() == value.range()) {
            return Some(format!("[{k}][{j}]"));
        }
    }
    None
}

/// The module-level code pytest runs when it imports the test file (`ModuleScope::prelude`), in
/// source order, as items: assignments become walrus bindings, calls are replayed for their effect,
/// parametrize lists that call code are evaluated whole into `_bx_pN`. Under the one assumption
/// (tests do not depend on the order they run in) a test sees the state a fresh import leaves; a
/// module-level object a function of the file changes is not a prelude name (`settle_prelude`), so
/// an assertion that reads it is dropped. A statement that would share a local of the fold with the
/// test's own local of the same name is a blocker; an inert one the test shadows is left out; so is
/// code that runs code when the test loads a solution module of its own (`fresh_load`).
fn prelude_items<'a>(
    ctx: &Ctx<'_, 'a>,
    own: &HashSet<String>,
    fresh_load: Option<&str>,
    items: &mut Vec<Item<'a>>,
) {
    let is_prelude = |n: &str| ctx.scope.prelude_names.contains(n);
    for (n, entry) in ctx.scope.prelude.iter().enumerate() {
        let mut item = match entry {
            PreludeStmt::Stmt { stmt, inert } => {
                let mut item = items::statement(ctx, stmt, &is_prelude);
                item.inert = *inert;
                item
            }
            PreludeStmt::ParamList { list } => {
                // What the replay evaluates: every entry, and of a `pytest.param(...)` its values.
                let mut loads = Vec::new();
                let elts = match list {
                    Expr::List(l) => &l.elts[..],
                    Expr::Tuple(t) => &t.elts[..],
                    _ => &[],
                };
                for e in elts {
                    match e {
                        Expr::Call(c)
                            if ctx.scope.pytest_path(e).as_deref() == Some("pytest.param") =>
                        {
                            for a in c.arguments.args.iter() {
                                loads.extend(names::Facts::of(a).loads);
                            }
                        }
                        other => loads.extend(names::Facts::of(other).loads),
                    }
                }
                let reads: Vec<Ident> = loads
                    .iter()
                    .filter(|l| is_prelude(&l.name))
                    .map(|l| l.name.clone())
                    .collect();
                let temp = param_list_name(n);
                let mut item = items::binding(
                    &temp,
                    list,
                    reads,
                    list.range(),
                    Kind::Other,
                    OriginRole::Parameter,
                    false,
                );
                item.value = None;
                item.loads = loads;
                item.fold = Ok(Piece::BindParams(Ident::from(temp.as_str()), list));
                item.label = Some(format!(
                    "the parametrize values on line {} (`{}`), which pytest evaluates when it imports the file,",
                    ctx.map.line(list.range().start()),
                    ctx.map.snippet(list.range())
                ));
                item
            }
        };
        // `__file__`, `__name__`, … of the test module: in the solution's namespace they are the
        // solution's.
        if let Some(dunder) = item.loads.iter().find(|l| {
            let n = l.name.as_str();
            n.len() > 4 && n.starts_with("__") && n.ends_with("__") && n != "__import__"
        }) {
            item.fold = Err(format!(
                "it reads the test module's own `{}`, which the solution's namespace has with another value",
                dunder.name
            ));
        }
        let shadowed = item.defs.iter().any(|d| own.contains(d.as_str()));
        if item.inert && shadowed {
            continue;
        }
        // A blocker still binds what the statement binds (not the test's own locals), so that a
        // read of it is blamed on the blocker rather than reported unbound.
        let defs: Vec<Ident> = item
            .defs
            .iter()
            .filter(|d| !own.contains(d.as_str()))
            .cloned()
            .collect();
        if let (Some(why), false) = (fresh_load, item.inert) {
            let line = ctx.map.line(entry.range().start());
            item = items::setup(
                entry.range(),
                format!(
                    "`{}` on line {line} runs when the test file is imported, on the solution module the file imports; {why}, which the evaluation namespace cannot tell apart",
                    ctx.map.snippet(entry.range())
                ),
            );
        } else if shadowed || item.loads.iter().any(|l| own.contains(l.name.as_str())) {
            let line = ctx.map.line(entry.range().start());
            item = items::setup(
                entry.range(),
                format!(
                    "`{}` on line {line} runs when the test file is imported and uses a module-level name the test also has as a local",
                    ctx.map.snippet(entry.range())
                ),
            );
        }
        item.defs = defs;
        items.push(item);
    }
}

fn add_fixture<'a>(
    ctx: &Ctx<'_, 'a>,
    test: &mut Test<'_, 'a>,
    name: &str,
    test_range: TextRange,
    items: &mut Vec<Item<'a>>,
    seen: &mut HashSet<String>,
    depth: usize,
) {
    if !seen.insert(name.to_string()) {
        return;
    }
    test.locals.insert(name.to_string());
    match ctx.scope.fixtures.get(name) {
        _ if depth > 32 => items.push(items::unfoldable_binding(
            name,
            test_range,
            format!("fixture `{name}` depends on too many fixtures"),
            false,
        )),
        Some(Fixture::Value {
            expr,
            params,
            range,
        }) => {
            for p in params {
                add_fixture(ctx, test, p, test_range, items, seen, depth + 1);
            }
            let inert = effects::expr_is_inert(expr, &|n| {
                params.iter().any(|p| p == n) || is_global_bound(ctx, n)
            });
            items.push(items::binding(
                name,
                expr,
                params.iter().map(|p| Ident::from(p.as_str())).collect(),
                *range,
                Kind::Fixture,
                OriginRole::Fixture,
                inert,
            ));
        }
        Some(Fixture::SolutionModule) => {
            test.aliases
                .insert(name.into(), Replacement::SolutionModule);
        }
        Some(Fixture::Unsupported { why }) => items.push(items::unfoldable_binding(
            name,
            test_range,
            why.clone(),
            false,
        )),
        None => {
            let builtin = PYTEST_FIXTURES.contains(&name);
            let why = if builtin {
                format!("`{name}` is a fixture pytest provides; it does not exist outside pytest")
            } else {
                format!("`{name}` is a fixture not defined in this file (a conftest.py or a plugin provides it), and its setup may change what the assertion reads")
            };
            items.push(items::unfoldable_binding(name, test_range, why, builtin));
        }
    }
}

/// Decide one top-level assert: which items to replay, whether every name resolves, and whether
/// to inline, fold or drop.
fn assertion(
    ctx: &Ctx,
    test: &Test,
    stmt: &ast::StmtAssert,
    items: &[Item],
    all_solution_names: &mut Vec<String>,
) -> Assertion {
    let case = test.case;
    let expr = stmt.test.as_ref();
    let facts = Facts::of(expr);
    let replay = replay_set(test, &facts, items);
    let line = ctx.map.line(stmt.range.start());
    let mut shapes = shapes_of(test, &facts, items, &replay.items);

    // Resolve every non-local name the assertion and its replay read.
    let mut map: Aliases = test.aliases.clone();
    let mut unresolved: Vec<String> = Vec::new();
    let mut why: Vec<String> = Vec::new();
    let mut origins: Vec<Origin> = Vec::new();
    let mut solution_names: Vec<String> = Vec::new();
    let mut stdlib = false;
    let mut sources: Vec<(&[names::Load], Option<usize>)> = vec![(&facts.loads, None)];
    for &i in &replay.items {
        sources.push((&items[i].loads, Some(i)));
    }
    for (loads, item) in &sources {
        for load in loads.iter() {
            let mapped = map.contains_key(load.name.as_str())
                && !test.aliases.contains_key(load.name.as_str());
            // Every read of a module attribute is checked, even through a name resolved before.
            let module_read = load.attr.is_some()
                && matches!(
                    map.get(load.name.as_str()),
                    Some(Replacement::SolutionModule)
                );
            if test.is_local(&load.name) || (mapped && !module_read) {
                continue;
            }
            let resolution = match test.aliases.get(load.name.as_str()) {
                Some(Replacement::SolutionModule) => match &load.attr {
                    Some(attr) => {
                        resolve::module_attr(ctx, &load.name, attr, &mut map, &mut solution_names)
                    }
                    None => Resolution::Unresolved(
                        format!(
                            "`{}` is the solution module itself, which has no name in its own namespace",
                            load.name
                        ),
                        false,
                    ),
                },
                Some(Replacement::Value(v)) if names::is_import_value(v) => Resolution::Stdlib,
                Some(Replacement::Value(v)) => {
                    solution_names.push(v.text.clone());
                    Resolution::Ok
                }
                None if module_read => resolve::module_attr(
                    ctx,
                    &load.name,
                    load.attr.as_deref().unwrap_or_default(),
                    &mut map,
                    &mut solution_names,
                ),
                None => resolve::resolve_global(
                    ctx,
                    &load.name,
                    load.attr.as_deref(),
                    sources.iter().all(|(loads, _)| {
                        loads.iter().all(|l| l.name != load.name || l.called)
                    }),
                    &mut map,
                    &mut origins,
                    &mut solution_names,
                ),
            };
            stdlib |= matches!(resolution, Resolution::Stdlib);
            if let Resolution::Unresolved(reason, is_import) = resolution {
                stdlib |= is_import;
                push_unresolved(
                    ctx,
                    &mut unresolved,
                    &mut why,
                    &load.name,
                    reason,
                    *item,
                    items,
                );
            }
        }
    }
    // A mutable constant of the test file is one object in pytest: read more than once, it is
    // bound once at the start of the fold instead of written out at each read.
    // A value written out for a global (a helper's lambda) must not read a local of the test,
    // which the fold would bind under that name.
    let mut captured: Vec<(String, String)> = map
        .iter()
        .filter(|(name, _)| !test.aliases.contains_key(name.as_str()))
        .filter_map(|(name, r)| match r {
            Replacement::Value(v) => v
                .free
                .iter()
                .find(|f| test.locals.contains(f.as_str()))
                .map(|f| (name.clone(), f.clone())),
            Replacement::SolutionModule => None,
        })
        .collect();
    captured.sort();
    for (name, local) in captured {
        unresolved.push(name.clone());
        why.push(format!(
            "`{name}` reads the global `{local}`, which this test also binds as a local"
        ));
    }
    let shared = shared_constants(ctx, test, &sources, &mut map);
    for n in &replay.unbound {
        unresolved.push(n.to_string());
        why.push(format!("`{n}` is not assigned before line {line}"));
    }
    // A builtin the test means, which the solution redefines (as the file or the solution shows):
    // in the solution's namespace the name is the solution's, so the builtin is spelled out.
    for (loads, _) in &sources {
        for l in loads.iter() {
            let name = l.name.as_str();
            if !test.is_local(name)
                && is_builtin(ctx, name)
                && (solution_names.iter().any(|s| s == name)
                    || ctx.scope.solution_attrs.contains(name))
            {
                map.insert(
                    name.to_string(),
                    Replacement::Value(std::rc::Rc::new(names::Rendered {
                        text: format!("__import__(\"builtins\").{name}"),
                        atomic: true,
                        prec: ruff_python_ast::OperatorPrecedence::CallAttribute,
                        free: vec!["__import__".to_string()],
                    })),
                );
            }
        }
    }
    if stdlib {
        shapes.push(Shape::StdlibReference);
    }
    solution_names.sort();
    solution_names.dedup();
    all_solution_names.extend(solution_names.iter().cloned());
    if solution_names.iter().any(|n| n != ctx.slug) {
        shapes.push(Shape::SlugNameMismatch);
    }
    shapes.sort();
    shapes.dedup();

    if let Some(reason) = &case.not_run {
        return emit::dropped(ctx, case, stmt, reason.clone(), unresolved, shapes, origins);
    }
    if !unresolved.is_empty() {
        unresolved.sort();
        unresolved.dedup();
        return emit::dropped(ctx, case, stmt, why.join("; "), unresolved, shapes, origins);
    }
    if let Some((i, reason, names)) = first_blocker(ctx, items, &replay) {
        origins.push(Origin {
            role: OriginRole::Blocker,
            span: ctx.map.span(items[i].range),
        });
        return emit::dropped(ctx, case, stmt, reason, names, shapes, origins);
    }
    if let Some(clash) = facts
        .walrus
        .iter()
        .find(|w| solution_names.iter().any(|s| s == w.as_str()))
    {
        let reason = format!("the assert binds `{clash}` with `:=`, which would hide the solution's `{clash}` in the evaluation namespace");
        return emit::dropped(
            ctx,
            case,
            stmt,
            reason,
            vec![clash.to_string()],
            shapes,
            origins,
        );
    }

    // pytest's assertion rewriting evaluates every operand and every comparison of a chain
    // (`a < b < c`), then joins the results; Python stops at the first false comparison.
    let checks =
        std::iter::once(expr).chain(replay.items.iter().filter_map(|&i| match &items[i].fold {
            Ok(items::Piece::Check(e)) => Some(*e),
            _ => None,
        }));
    if let Some(chain) = checks.into_iter().find_map(chained_comparison) {
        let reason = format!(
            "pytest's assertion rewriting evaluates every operand and comparison of the chain `{}` (line {}), where Python stops at the first false one",
            ctx.map.snippet(chain.range),
            ctx.map.line(chain.range.start())
        );
        return emit::dropped(ctx, case, stmt, reason, Vec::new(), shapes, origins);
    }

    // The file's `from solution import …`, replayed as snapshots (see `imports`).
    let snapshots = imports::snapshot_names(ctx.scope);
    let replayed_exprs = replay
        .items
        .iter()
        .flat_map(|&i| piece_exprs(&items[i].fold));
    if let Some(name) = imports::live_read_of_snapshot(
        ctx.scope,
        std::iter::once(expr).chain(replayed_exprs),
        &snapshots,
    ) {
        let reason = format!(
            "the test reads the solution's live `{name}` through the module, and the file also imports `{name}` by name (the object it held at import): one expression cannot read both"
        );
        return emit::dropped(ctx, case, stmt, reason, vec![name], shapes, origins);
    }

    let inlined = if shared.is_empty() {
        emit::try_inline(ctx, expr, &facts, items, &replay.items, &map, &mut origins)
    } else {
        None
    };
    if let Some(text) = inlined {
        // A walrus in the assert binds a name: inside a lambda it cannot clobber a solution global.
        let text = if facts.walrus.is_empty() {
            text
        } else {
            format!("(lambda: {text})()")
        };
        let text = imports::bind_snapshots(text, &snapshots);
        return emit::kept(ctx, case, stmt, text, shapes, origins);
    }
    match emit::fold(
        ctx,
        expr,
        items,
        &replay.items,
        &map,
        &solution_names,
        &shared,
    ) {
        Ok(text) => {
            for &i in &replay.items {
                origins.push(Origin {
                    role: if items[i].role == OriginRole::Inlined {
                        OriginRole::Folded
                    } else {
                        items[i].role
                    },
                    span: ctx.map.span(items[i].range),
                });
            }
            let text = imports::bind_snapshots(text, &snapshots);
            emit::kept(ctx, case, stmt, text, shapes, origins)
        }
        Err(reason) => emit::dropped(ctx, case, stmt, reason, vec![], shapes, origins),
    }
}

/// Mutable constants of the test file read more than once by an assertion and its replay: they
/// leave `map` (so they are written by name) and are returned with their values, to be bound once.
fn shared_constants(
    ctx: &Ctx,
    test: &Test,
    sources: &[(&[names::Load], Option<usize>)],
    map: &mut Aliases,
) -> Vec<(String, String)> {
    let mut counts: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for (loads, _) in sources {
        for load in loads.iter() {
            if !test.is_local(&load.name) {
                *counts.entry(load.name.as_str()).or_default() += 1 + usize::from(load.repeated);
            }
        }
    }
    let mut shared: Vec<(String, String)> = counts
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .filter_map(|(name, _)| match ctx.scope.globals.get(name) {
            Some(Global::Constant { value, source, .. })
                if !names::is_immutable_literal(source) =>
            {
                Some((name.to_string(), value.text.clone()))
            }
            _ => None,
        })
        .collect();
    shared.sort();
    for (name, _) in &shared {
        map.remove(name);
    }
    shared
}

/// The items an assertion replays, and for each the locals that made it needed.
struct Replay {
    items: Vec<usize>,
    /// For each replayed item (by index in `items`), the needed locals it binds.
    binds: Vec<Vec<Ident>>,
    /// Locals the assertion needs that nothing before it binds.
    unbound: Vec<Ident>,
}

/// Everything before the assertion that is not inert, plus the inert bindings of what that reads.
fn replay_set(test: &Test, facts: &Facts, items: &[Item]) -> Replay {
    let mut needed: HashSet<Ident> = facts
        .loads
        .iter()
        .filter(|l| test.is_local(l.name.as_str()))
        .map(|l| l.name.clone())
        .collect();
    let mut chosen = Vec::new();
    let mut binds = Vec::new();
    for (i, item) in items.iter().enumerate().rev() {
        let hits: Vec<Ident> = item
            .defs
            .iter()
            .filter(|d| needed.contains(*d))
            .cloned()
            .collect();
        if hits.is_empty() && item.inert {
            continue;
        }
        for d in &item.defs {
            needed.remove(d);
        }
        // A block that cannot be replayed reads names it binds itself (`for step in …`); its
        // reads only matter for the reason it gives.
        for r in &item.reads {
            if item.fold.is_ok() || !item.defs.contains(r) {
                needed.insert(r.clone());
            }
        }
        chosen.push(i);
        binds.push(hits);
    }
    chosen.reverse();
    binds.reverse();
    let mut unbound: Vec<Ident> = needed.into_iter().collect();
    unbound.sort();
    Replay {
        items: chosen,
        binds,
        unbound,
    }
}

/// The first replayed item that cannot be replayed, with the drop reason and the names involved.
fn first_blocker(
    ctx: &Ctx,
    items: &[Item],
    replay: &Replay,
) -> Option<(usize, String, Vec<String>)> {
    for (pos, &i) in replay.items.iter().enumerate() {
        let item = &items[i];
        let Err(blocker) = &item.fold else { continue };
        let hits = &replay.binds[pos];
        let listed: Vec<String> = hits.iter().map(|n| format!("`{n}`")).collect();
        let names: Vec<String> = hits.iter().map(|n| n.to_string()).collect();
        let reason = if blocker.is_empty() {
            format!("{} cannot be replayed in an expression", item.what(ctx))
        } else if item.label.is_some() {
            // A binding that cannot be reproduced (a fixture, the class instance) or setup: cite
            // where the test uses it.
            let user = replay.items[pos + 1..]
                .iter()
                .find(|&&j| item.defs.iter().any(|d| items[j].reads.contains(d)));
            match user {
                Some(&j) => format!("{} uses it; {blocker}", items[j].what(ctx)),
                None => blocker.clone(),
            }
        } else if !hits.is_empty() {
            let be = if hits.len() == 1 { "is" } else { "are" };
            match &item.place {
                Some(place) => format!(
                    "{} {be} assigned inside {place}, which cannot be folded into an expression",
                    listed.join(", ")
                ),
                None if !blocker.contains(&listed[0]) => {
                    format!("{} {be} assigned there: {blocker}", listed.join(", "))
                }
                None => blocker.clone(),
            }
        } else {
            let what = item.place.clone().unwrap_or_else(|| item.what(ctx));
            format!("{what} runs before this assert and may change what it reads, but cannot be replayed in an expression: {blocker}")
        };
        return Some((i, reason, names));
    }
    None
}

fn shapes_of(test: &Test, facts: &Facts, items: &[Item], replay: &[usize]) -> Vec<Shape> {
    let case = test.case;
    let params = || case.func.parameters.iter().map(|p| p.name().as_str());
    let mut shapes = Vec::new();
    let reads_statement_local = facts.free_names().any(|n| {
        test.is_local(n)
            && !params().any(|p| p == n)
            && !items.iter().any(|it| {
                matches!(it.kind, Kind::Param | Kind::Fixture) && it.defs.iter().any(|d| d == n)
            })
    });
    let statement = |it: &Item| it.label.is_none() && it.kind != Kind::Assert;
    if reads_statement_local
        || replay
            .iter()
            .any(|&i| statement(&items[i]) && !items[i].defs.is_empty())
    {
        shapes.push(Shape::VariableThenAssert);
    }
    // An earlier assert that works on an object this one reads through it (`it.next()`).
    let reads = |it: &Item| {
        it.loads.iter().any(|l| {
            l.attr.is_some()
                && test.is_local(&l.name)
                && facts.free_names().any(|n| n == l.name.as_str())
        })
    };
    if replay.iter().any(|&i| {
        let it = &items[i];
        (statement(it)
            && matches!(
                it.fold,
                Ok(Piece::Eval(_)
                    | Piece::Store(..)
                    | Piece::Augmented(..)
                    | Piece::DelItem(..)
                    | Piece::DelAttr(..))
            ))
            // An earlier assert that works on an object this one reads (`it.next()`).
            || (it.kind == Kind::Assert && reads(it))
    }) {
        shapes.push(Shape::InstanceWithSideEffects);
    }
    if (!case.params.is_empty() && replay.iter().any(|&i| items[i].kind == Kind::Param))
        || (case.parametrized
            && case.params.is_empty()
            && facts.free_names().any(|n| params().any(|p| p == n)))
    {
        shapes.push(Shape::ParametrizedInputs);
    }
    shapes
}

fn push_unresolved(
    ctx: &Ctx,
    unresolved: &mut Vec<String>,
    why: &mut Vec<String>,
    name: &str,
    reason: String,
    item: Option<usize>,
    items: &[Item],
) {
    if unresolved.iter().any(|u| u == name) {
        return;
    }
    unresolved.push(name.to_string());
    match item {
        Some(i) if items[i].kind == Kind::Assert => why.push(format!(
            "the earlier assert {} is replayed before this one, and {reason}",
            items[i].what(ctx)
        )),
        Some(i) if !items[i].defs.is_empty() => why.push(format!(
            "{} feeds this assertion, and {reason}",
            items[i].what(ctx)
        )),
        Some(i) => why.push(format!(
            "{} runs before this assertion and may change what it reads, and {reason}",
            items[i].what(ctx)
        )),
        None => why.push(reason),
    }
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
fn container_reason(ctx: &Ctx, stmt: &Stmt) -> Option<String> {
    let line = ctx.map.line(stmt.range().start());
    Some(match stmt {
        Stmt::For(_) => format!("it is inside the `for` loop on line {line}: pytest runs it once per iteration, or never"),
        Stmt::While(_) => format!("it is inside the `while` loop on line {line}: pytest runs it once per iteration, or never"),
        Stmt::If(_) => format!("it is inside the `if` on line {line}: pytest runs it only when that branch is taken"),
        Stmt::With(w) => {
            let raises = w.items.iter().any(|i| {
                matches!(ctx.scope.pytest_path(&i.context_expr).as_deref(), Some("pytest.raises" | "pytest.warns" | "pytest.deprecated_call"))
            });
            if raises {
                format!("it is inside `{}` on line {line}: pytest expects that block to raise or warn", ctx.map.snippet(w.items[0].context_expr.range()))
            } else {
                format!("it is inside the `with` block on line {line}, whose context manager may change what it sees or swallow its failure")
            }
        }
        Stmt::Try(_) => format!("it is inside the `try` on line {line}: an exception may be caught or a handler may run instead"),
        Stmt::Match(_) => format!("it is inside the `match` on line {line}: pytest runs it only when that case matches"),
        Stmt::FunctionDef(d) => format!("it is inside the nested function `{}` (line {line}), which runs only if something calls it", d.name),
        Stmt::ClassDef(c) => format!("it is inside the class `{}` (line {line}) defined in the test", c.name),
        _ => return None,
    })
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

/// A comparison chain of two or more operators in an assert's expression (outside lambdas and
/// comprehensions, which pytest does not rewrite).
fn chained_comparison(expr: &Expr) -> Option<&ast::ExprCompare> {
    use ruff_python_ast::visitor::walk_expr;
    struct Finder<'a>(Option<&'a ast::ExprCompare>);
    impl<'a> Visitor<'a> for Finder<'a> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if self.0.is_some() {
                return;
            }
            match expr {
                Expr::Compare(c) if c.ops.len() > 1 => self.0 = Some(c),
                Expr::Lambda(_)
                | Expr::ListComp(_)
                | Expr::SetComp(_)
                | Expr::DictComp(_)
                | Expr::Generator(_) => {}
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut finder = Finder(None);
    finder.visit_expr(expr);
    finder.0
}

/// The expressions a replayed item evaluates.
fn piece_exprs<'a>(fold: &Result<items::Piece<'a>, String>) -> Vec<&'a Expr> {
    use items::Piece::*;
    match fold {
        Ok(Bind(_, v) | BindName(_, v) | BindParams(_, v) | Eval(v) | Check(v)) => vec![*v],
        Ok(Unpack(t, v) | Store(t, v) | Augmented(t, _, v) | DelItem(t, v)) => vec![*t, *v],
        Ok(DelAttr(v, _)) => vec![*v],
        Ok(BindIndexed(..)) | Err(_) => Vec::new(),
    }
}
