//! Setup: what pytest runs before the test's body, as items — module-level effects, autouse
//! fixtures and setup methods, the file's import-time code (the prelude), changes to state every
//! test shares, then the test's parameters and fixtures.

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use super::items::{self, Blocker, Item, Kind, Piece};
use super::qualnames::Home;
use super::{effects, is_global_bound, Ctx, Test};
use crate::case::Case;
use crate::model::OriginRole;
use crate::module::{Fixture, PreludeStmt};
use crate::names::{self, Ident, Replacement};
use crate::rules::{Collection, Reason};

/// A reason's words as `items::setup`, `items::unfoldable_binding` and `Blocker::Reason`
/// (flatten/items/) take them. Seam: the rule is named at each site here and lost there until
/// they take a `Reason`; then this is the identity.
fn words(reason: Reason) -> Reason {
    reason
}

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

/// How deep fixtures may request fixtures before the extractor gives up.
const MAX_FIXTURE_DEPTH: usize = 32;

/// Setup that runs before the test's body: module-level effects, autouse fixtures and setup
/// methods, changes to a solution module all tests share, then parameters and fixtures.
pub(super) fn setup_items<'a>(
    ctx: &Ctx<'_, 'a>,
    test: &mut Test<'_, 'a>,
    own: &HashSet<String>,
    fresh_load: Option<&str>,
    items: &mut Vec<Item<'a>>,
) {
    barrier_items(ctx, test.case, items);
    prelude_items(ctx, own, fresh_load, items);
    shared_change_items(ctx, test.case.func, items);
    parameter_items(ctx, test, own, items);
}

/// Module-level effects run before every test; any one of them blocks what follows, so the first
/// stands for all (one item per test, whatever the file's size). Then the case's own setup
/// (`usefixtures`, setup methods).
fn barrier_items<'a>(ctx: &Ctx<'_, 'a>, case: &Case<'a>, items: &mut Vec<Item<'a>>) {
    if let Some((_, why)) = ctx.scope.global_barriers.first() {
        use crate::rules::{ModuleCode, Rule};
        // A file pytest cannot import stops every test: it changes no assertion, it runs none.
        let stops_every_test = matches!(
            why.rule,
            Rule::ModuleCode(
                ModuleCode::ImportedFileDoesNotParse | ModuleCode::ConftestImportMayFail
            )
        );
        items.push(if stops_every_test {
            items::stop(case.func.range, why.clone())
        } else {
            items::setup(case.func.range, why.clone())
        });
    }
    // Seam: `items::setup` takes text (see `words`).
    for (_, why) in &case.setup {
        items.push(items::setup(case.func.range, crate::case::said(why)));
    }
}

/// Changes, made by code before the test, to state every later test shares.
fn shared_change_items<'a>(ctx: &Ctx<'_, 'a>, f: &ast::StmtFunctionDef, items: &mut Vec<Item<'a>>) {
    for change in ctx
        .scope
        .shared_changes
        .iter()
        .filter(|c| c.start() < f.range.start() && !f.range.contains_range(**c))
    {
        let mut item = items::setup(
            *change,
            crate::rules::ModuleCode::ChangesSharedState.because(format!(
                "`{}` on line {} changes state every later test shares (the solution module pytest imported once, or the process: its RNG, its environment)",
                ctx.map.snippet(*change),
                ctx.map.line(change.start())
            )),
        );
        item.label = None;
        items.push(item);
    }
}

/// One item per parameter of the test: a parametrize value, the class instance, a default, a
/// class fixture, or a fixture of the file (with the fixtures it requests, first).
fn parameter_items<'a>(
    ctx: &Ctx<'_, 'a>,
    test: &mut Test<'_, 'a>,
    own: &HashSet<String>,
    items: &mut Vec<Item<'a>>,
) {
    let case = test.case;
    let f = case.func;
    let mut seen_fixtures = HashSet::default();
    let mut constants: Vec<ConftestConstants> = Vec::new();
    for (i, p) in f.parameters.iter().enumerate() {
        let p = p.name().as_str();
        if let Some(k) = case.params.iter().position(|(n, _)| n == p) {
            items.push(parametrized_item(ctx, case, k, p));
        } else if let Some((_, text, range)) = case.fixture_values.iter().find(|v| v.0 == p) {
            // A parametrized fixture's value for this case (its body run by collect): source
            // that reads only builtins, bound where the fixture runs.
            items.push(Item {
                defs: vec![Ident::from(p)],
                fold: Ok(Piece::BindIndexed(Ident::from(p), text.clone())),
                label: Some(format!("`{p}`")),
                kind: Kind::Fixture,
                role: OriginRole::Fixture,
                ..Item::blank(*range, Kind::Other, OriginRole::Blocker)
            });
        } else if i == 0 && case.unittest && !super::resolve::shadows_import(ctx) {
            // A unittest test's instance: a plain `TestCase()` (see `unittest.rs` for when that is
            // exact), made where pytest's unittest plugin makes the real one, before the test.
            items.push(Item {
                defs: vec![Ident::from(p)],
                fold: Ok(Piece::BindIndexed(
                    Ident::from(p),
                    "__import__(\"unittest\").TestCase()".to_string(),
                )),
                label: Some(format!("`{p}`, the test case's instance")),
                kind: Kind::Fixture,
                role: OriginRole::Fixture,
                // Making a `TestCase` runs unittest's code alone and cannot raise: replayed only
                // where something reads the instance.
                inert: true,
                ..Item::blank(f.range, Kind::Other, OriginRole::Blocker)
            });
            // The class's `setUp`, which unittest runs on that instance before the test.
            if let Some(set_up) = case.unittest_setup {
                for stmt in &set_up.body {
                    let mut item = items::statement(ctx, stmt, &|n| n == p);
                    item.inert = matches!(stmt, Stmt::Pass(_))
                        || matches!(stmt, Stmt::Expr(e) if e.value.is_string_literal_expr());
                    items.push(item);
                }
            }
        } else if i == 0 && case.is_method {
            items.push(items::unfoldable_binding(
                p,
                f.range,
                words(Collection::TestClassInstance.because(format!(
                    "`{p}` is the test class's instance, which pytest makes before the test; what the test reads through it (a class attribute made at import, or state a setup method or fixture sets) is not replayed"
                ))),
                true,
            ));
        } else if let Some(default) = default_of(f, p) {
            items.push(default_item(ctx, p, default));
        } else if let Some((_, line)) = case.class_fixtures.iter().rev().find(|(n, _)| n == p) {
            test.locals.insert(p.to_string());
            items.push(items::unfoldable_binding(
                p,
                f.range,
                words(Collection::ClassFixtureNotReplayed.because(format!("`{p}` is a fixture of the test's class (line {line}), which the extractor does not replay, and its setup may change what the assertion reads"))),
                false,
            ));
        } else {
            let mut fixtures = Fixtures {
                ctx,
                test,
                own,
                test_range: f.range,
                items,
                seen: &mut seen_fixtures,
                constants: &mut constants,
            };
            fixtures.add(p, 0);
        }
    }
    share_conftest_constants(items, constants);
}

/// A conftest fixture's item, with its value written with the conftest's mutable constants out
/// (`Fixture::Conftest::alone`) and the constants it reads.
struct ConftestConstants {
    item: usize,
    alone: std::rc::Rc<str>,
    constants: Vec<(String, String, usize)>,
}

/// A conftest's mutable constant is one object in pytest, which every fixture reading it hands
/// on. Read once in all the test's conftest fixtures, its value is written where it is read; read
/// more than once, it is bound once, before the first of those fixtures, under its reserved name
/// (`_bx_c0_SAMPLE := [3, 1, 2]`), and every fixture that reads one such constant reads them all
/// by name. (A conftest fixture is never inert: each assertion of the test replays them all.)
fn share_conftest_constants(items: &mut Vec<Item>, found: Vec<ConftestConstants>) {
    let mut total: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for f in &found {
        for (name, _, n) in &f.constants {
            *total.entry(name.as_str()).or_default() += n;
        }
    }
    let mut bound: Vec<(String, String)> = Vec::new();
    let mut first: Option<usize> = None;
    for f in &found {
        let shares = f
            .constants
            .iter()
            .any(|(name, _, _)| total.get(name.as_str()).is_some_and(|&n| n > 1));
        if shares {
            first = Some(first.map_or(f.item, |i: usize| i.min(f.item)));
            for (name, value, _) in &f.constants {
                if !bound.iter().any(|(b, _)| b == name) {
                    bound.push((name.clone(), value.clone()));
                }
                items[f.item].reads.push(Ident::from(name.as_str()));
            }
        } else if let Ok(Piece::BindIndexed(_, text)) = &mut items[f.item].fold {
            *text = f.alone.to_string();
        }
    }
    let Some(at) = first else {
        return;
    };
    let range = items[at].range;
    for (k, (name, value)) in bound.into_iter().enumerate() {
        items.insert(
            at + k,
            Item {
                defs: vec![Ident::from(name.as_str())],
                fold: Ok(Piece::BindIndexed(Ident::from(name.as_str()), value)),
                label: Some(format!("`{name}`, a conftest's constant,")),
                kind: Kind::Fixture,
                role: OriginRole::Fixture,
                // A display of literals: runs no code, cannot raise; replayed where read.
                inert: true,
                ..Item::blank(range, Kind::Other, OriginRole::Blocker)
            },
        );
    }
}

/// The `k`th parametrize value of the case, bound to the parameter `p`. Parametrize values are
/// evaluated at module scope, before the test.
fn parametrized_item<'a>(ctx: &Ctx<'_, 'a>, case: &Case<'a>, k: usize, p: &str) -> Item<'a> {
    let value = case.params[k].1;
    let range = case.param_ranges[k];
    if !names::is_immutable_literal(value) && !ctx.shared_params.borrow_mut().insert(value.range())
    {
        return items::unfoldable_binding(
            p,
            range,
            words(Collection::ParamObjectSharedBetweenCases.because(format!(
                "`{p}` is the object `{}` (line {}) that pytest hands every case of the test; an earlier case may have changed it",
                ctx.map.snippet(value.range()),
                ctx.map.line(value.range().start())
            ))),
            false,
        );
    }
    if let Some((n, list)) = replayed_list(ctx, value) {
        return indexed_param_item(ctx, p, range, n, list, value);
    }
    let inert = effects::expr_is_inert(value, &|n| is_global_bound(ctx, n));
    Item {
        home: Some(Home::Module),
        ..items::binding(
            p,
            value,
            Vec::new(),
            range,
            Kind::Param,
            OriginRole::Parameter,
            inert,
        )
    }
}

/// The prelude's parametrize list that holds `value`, if the list is replayed whole: its index in
/// the prelude, and the list.
fn replayed_list<'a>(ctx: &Ctx<'_, 'a>, value: &Expr) -> Option<(usize, &'a Expr)> {
    ctx.scope
        .prelude
        .iter()
        .enumerate()
        .find_map(|(n, p)| match p {
            PreludeStmt::ParamList { list } if list.range().contains_range(value.range()) => {
                Some((n, *list))
            }
            _ => None,
        })
}

/// The list was evaluated whole at import (a prelude item): the case takes its value from it by
/// index, the object pytest hands this case.
fn indexed_param_item<'a>(
    ctx: &Ctx<'_, 'a>,
    p: &str,
    range: TextRange,
    n: usize,
    list: &Expr,
    value: &Expr,
) -> Item<'a> {
    let temp = param_list_name(n);
    match index_in(list, value) {
        Some(index) => Item {
            defs: vec![Ident::from(p)],
            reads: vec![Ident::from(temp.as_str())],
            inert: true,
            fold: Ok(Piece::BindIndexed(Ident::from(p), format!("{temp}{index}"))),
            label: Some(format!("`{p}`")),
            kind: Kind::Param,
            role: OriginRole::Parameter,
            ..Item::blank(range, Kind::Other, OriginRole::Blocker)
        },
        // Invariant (it was the rule C030, retired): collection takes a case's values from a
        // replayed list only as an element, a part of a tuple or list element without `*`, or an
        // argument of a `pytest.param` without `*` (`collect::param_sets`), and a replayed list has
        // no starred element (`module::prelude`): `index_in` finds each of them.
        None => {
            debug_assert!(
                false,
                "`{p}` (line {}) lies in a replayed parametrize list but has no index in it",
                ctx.map.line(value.range().start())
            );
            items::unfoldable_binding(
                p,
                range,
                words(Collection::ParamValueComputed.because(format!(
                    "`{p}` is a value of the parametrize list on line {} that the extractor cannot take from it by index (the extractor's internal check that it always can failed)",
                    ctx.map.line(list.range().start())
                ))),
                false,
            )
        }
    }
}

/// The default of the test's parameter `p`, if it has one.
fn default_of<'a>(f: &'a ast::StmtFunctionDef, p: &str) -> Option<&'a Expr> {
    f.parameters
        .iter_non_variadic_params()
        .find(|q| q.parameter.name.as_str() == p)
        .and_then(|q| q.default.as_deref())
}

/// A parameter with a default is not a fixture: pytest leaves it to its default, which was
/// evaluated when the `def` ran, at import.
fn default_item<'a>(ctx: &Ctx<'_, 'a>, p: &str, default: &'a Expr) -> Item<'a> {
    let inert = effects::expr_is_inert(default, &|n| is_global_bound(ctx, n));
    Item {
        home: Some(Home::Module),
        ..items::binding(
            p,
            default,
            Vec::new(),
            default.range(),
            Kind::Param,
            OriginRole::Parameter,
            inert,
        )
    }
}

/// The name a replayed parametrize list is bound to in the fold.
pub(super) fn param_list_name(n: usize) -> String {
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
    for (n, entry) in ctx.scope.prelude.iter().enumerate() {
        let mut item = prelude_item(ctx, n, entry);
        item.home = Some(Home::Module);
        refuse_test_module_dunder(&mut item);
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
        if let Some(why) = prelude_blocker(ctx, entry, &item, own, shadowed, fresh_load) {
            item = items::setup(entry.range(), why);
        }
        item.defs = defs;
        items.push(item);
    }
}

/// One entry of the prelude as an item, before the test's own locals are considered.
fn prelude_item<'a>(ctx: &Ctx<'_, 'a>, n: usize, entry: &PreludeStmt<'a>) -> Item<'a> {
    match entry {
        PreludeStmt::Stmt { stmt, inert } => {
            let mut item = items::statement(ctx, stmt, &|n| ctx.scope.prelude_names.contains(n));
            item.inert = *inert;
            item
        }
        PreludeStmt::ParamList { list } => param_list_item(ctx, n, list),
        PreludeStmt::Read { expr } => read_item(ctx, expr),
    }
}

/// A bare read of the solution that pytest made at import after replayed code, read again at its
/// place: `[sol.X]` fails the check where pytest's collection failed.
fn read_item<'a>(ctx: &Ctx<'_, 'a>, expr: &'a Expr) -> Item<'a> {
    let mut item = items::binding(
        "",
        expr,
        Vec::new(),
        expr.range(),
        Kind::Other,
        OriginRole::Folded,
        false,
    );
    item.defs = Vec::new();
    item.value = None;
    item.fold = Ok(Piece::Eval(expr));
    item.label = Some(format!(
        "`{}` on line {}, which pytest read when it imported the file,",
        ctx.map.snippet(expr.range()),
        ctx.map.line(expr.range().start())
    ));
    item
}

/// A parametrize list that calls code, evaluated whole into its temporary `_bx_pN`.
fn param_list_item<'a>(ctx: &Ctx<'_, 'a>, n: usize, list: &'a Expr) -> Item<'a> {
    let loads = param_list_loads(ctx, list);
    let reads: Vec<Ident> = loads
        .iter()
        .filter(|l| ctx.scope.prelude_names.contains(l.name.as_str()))
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

/// What the replay of a parametrize list evaluates: every entry, and of a `pytest.param(...)` its
/// values.
fn param_list_loads(ctx: &Ctx, list: &Expr) -> Vec<names::Load> {
    let mut loads = Vec::new();
    let elts = match list {
        Expr::List(l) => &l.elts[..],
        Expr::Tuple(t) => &t.elts[..],
        _ => &[],
    };
    for e in elts {
        match e {
            Expr::Call(c) if ctx.scope.pytest_path(e).as_deref() == Some("pytest.param") => {
                for a in c.arguments.args.iter() {
                    loads.extend(names::Facts::of(a).loads);
                }
            }
            other => loads.extend(names::Facts::of(other).loads),
        }
    }
    loads
}

/// `__file__`, `__name__`, … of the test module: in the solution's namespace they are the
/// solution's, so an item that reads one cannot be replayed.
fn refuse_test_module_dunder(item: &mut Item) {
    if let Some(dunder) = item.loads.iter().find(|l| {
        let n = l.name.as_str();
        n.len() > 4 && n.starts_with("__") && n.ends_with("__") && n != "__import__"
    }) {
        item.fold = Err(Blocker::Reason(crate::rules::Statements::TestModuleDunder.because(
            format!(
                "it reads the test module's own `{}`, which the solution's namespace has with another value",
                dunder.name
            ),
        )));
    }
}

/// Why a prelude entry that the test would see cannot be replayed for it: it runs code on a
/// solution module the test loads again, or it shares a name with one of the test's own locals.
fn prelude_blocker(
    ctx: &Ctx,
    entry: &PreludeStmt,
    item: &Item,
    own: &HashSet<String>,
    shadowed: bool,
    fresh_load: Option<&str>,
) -> Option<Reason> {
    let line = ctx.map.line(entry.range().start());
    if let (Some(why), false) = (fresh_load, item.inert) {
        Some(crate::rules::Statements::SolutionLoadedTwice.because(format!(
            "`{}` on line {line} runs when the test file is imported, on the solution module the file imports; {why}, which the evaluation namespace cannot tell apart",
            ctx.map.snippet(entry.range())
        )))
    } else if shadowed || item.loads.iter().any(|l| own.contains(l.name.as_str())) {
        Some(crate::rules::ModuleCode::ModuleCodeReadsTestLocal.because(format!(
            "`{}` on line {line} runs when the test file is imported and uses a module-level name the test also has as a local",
            ctx.map.snippet(entry.range())
        )))
    } else if ctx.log_level_set && !item.inert && !stdlib_on_literals(ctx, entry) {
        Some(crate::rules::ModuleCode::ModuleCodeUnderLogLevel.because(format!(
            "`{}` on line {line} runs when the test file is imported, inside pytest's collection, which restores the root logger's level afterwards because the configuration sets a log level; replayed in the check, a level it sets would stay for the assert",
            ctx.map.snippet(entry.range())
        )))
    } else {
        None
    }
}

/// A module-level statement that binds names to, or evaluates, calls of standard-library
/// functions (spelled out, of modules of data and arithmetic) on literal values only (`NO_DEFAULT = loads(dumps("x"))`): no code of the file's or the solution's
/// runs, so no logger's level changes.
fn stdlib_on_literals(ctx: &Ctx, entry: &PreludeStmt) -> bool {
    fn call_ok(ctx: &Ctx, e: &Expr) -> bool {
        let Expr::Call(c) = e else {
            return crate::names::is_literal_value(e, &|_| false);
        };
        let Some(dotted) = crate::module::dotted_name(&c.func) else {
            return false;
        };
        let first = dotted.split('.').next().unwrap_or("");
        let module = match ctx.scope.globals.get(first) {
            Some(crate::module::Global::Import {
                module,
                stdlib: Some(_),
                ..
            }) => format!("{module}{}", &dotted[first.len()..]),
            _ => return false,
        };
        let top = module.split('.').next().unwrap_or("");
        // Modules of data and arithmetic, whose functions on literal values call nothing else.
        const PURE: &[&str] = &[
            "pickle",
            "json",
            "re",
            "math",
            "cmath",
            "string",
            "textwrap",
            "datetime",
            "decimal",
            "fractions",
            "collections",
            "itertools",
            "operator",
            "hashlib",
            "base64",
            "binascii",
            "struct",
            "uuid",
            "random",
            "copy",
            "pathlib",
            "calendar",
            "ipaddress",
            "unicodedata",
            "statistics",
            "heapq",
            "bisect",
            "array",
        ];
        (PURE.contains(&top) || module.starts_with("os.path."))
            && c.arguments.args.iter().all(|a| call_ok(ctx, a))
            && c.arguments
                .keywords
                .iter()
                .all(|k| k.arg.is_some() && call_ok(ctx, &k.value))
    }
    match entry {
        PreludeStmt::Stmt { stmt, .. } => match stmt {
            Stmt::Assign(a) => {
                a.targets.iter().all(|t| matches!(t, Expr::Name(_))) && call_ok(ctx, &a.value)
            }
            Stmt::Expr(e) => call_ok(ctx, &e.value),
            _ => false,
        },
        _ => false,
    }
}

/// Adding a requested fixture, and the fixtures it requests, once each.
struct Fixtures<'c, 's, 'a, 't, 'u> {
    ctx: &'c Ctx<'s, 'a>,
    test: &'t mut Test<'u, 'a>,
    /// The test's own locals (its parameters and what its body binds).
    own: &'t HashSet<String>,
    /// Where a fixture that cannot be replayed is blamed: the test function.
    test_range: TextRange,
    items: &'t mut Vec<Item<'a>>,
    seen: &'t mut HashSet<String>,
    /// The conftest fixtures added that read the conftest's mutable constants.
    constants: &'t mut Vec<ConftestConstants>,
}

impl<'a> Fixtures<'_, '_, 'a, '_, '_> {
    fn add(&mut self, name: &str, depth: usize) {
        if !self.seen.insert(name.to_string()) {
            return;
        }
        self.test.locals.insert(name.to_string());
        let ctx = self.ctx;
        // `def precision(precision)`: the fixture requests the one of the same name it overrides
        // (a conftest's, a plugin's), which `ModuleScope::fixtures` does not hold.
        let requests_itself = match ctx.scope.fixtures.get(name) {
            Some(Fixture::Value { params, .. } | Fixture::Conftest { params, .. }) => {
                params.iter().any(|p| p == name)
            }
            _ => false,
        };
        if requests_itself {
            self.items.push(items::unfoldable_binding(
                name,
                self.test_range,
                words(Collection::FixtureNotInFile.because(format!(
                    "fixture `{name}` requests `{name}`, the fixture of that name it overrides (from a conftest.py or a plugin), which the extractor does not replay, and its setup may change what the assertion reads"
                ))),
                false,
            ));
            return;
        }
        match ctx.scope.fixtures.get(name) {
            _ if depth > MAX_FIXTURE_DEPTH => self.items.push(items::unfoldable_binding(
                name,
                self.test_range,
                words(
                    Collection::FixtureChainTooDeep
                        .because(format!("fixture `{name}` depends on too many fixtures")),
                ),
                false,
            )),
            Some(Fixture::Value {
                expr,
                params,
                defaults,
                range,
            }) => {
                for p in params {
                    self.add(p, depth + 1);
                }
                // A parameter with a default is no request: pytest passes the default, which the
                // fold, among the test's locals, cannot tell from a fixture of the same name.
                let loads = names::Facts::of(expr).loads;
                if let Some((p, default)) = defaults
                    .iter()
                    .find(|(p, _)| loads.iter().any(|l| l.name.as_str() == p))
                {
                    self.items.push(items::unfoldable_binding(
                        name,
                        self.test_range,
                        words(crate::rules::Fixtures::FixtureParameterDefault.because(format!(
                            "fixture `{name}` (line {}) reads its parameter `{p}`, which has the default `{}`: pytest passes the default, not a fixture `{p}`, and the check computes the fixture among the test's locals",
                            ctx.map.line(range.start()),
                            ctx.map.snippet(default.range())
                        ))),
                        false,
                    ));
                    return;
                }
                // The fixture's body reads the module's globals; in the fold its value is
                // computed among the test's locals, where a local of the same name would answer.
                let captured = names::Facts::of(expr).loads.into_iter().find(|l| {
                    self.own.contains(l.name.as_str()) && !params.iter().any(|p| *p == l.name)
                });
                match captured {
                    Some(load) => self.items.push(items::unfoldable_binding(
                        name,
                        self.test_range,
                        words(crate::rules::Fixtures::FixtureReadsTestLocal.because(format!(
                            "fixture `{name}` (line {}) reads the global `{}`, which this test also binds as a local",
                            ctx.map.line(range.start()),
                            load.name
                        ))),
                        false,
                    )),
                    None => self
                        .items
                        .push(fixture_value_item(ctx, name, expr, params, *range)),
                }
            }
            Some(Fixture::Conftest {
                text,
                alone,
                constants,
                params,
                reads,
                label,
            }) => {
                for p in params {
                    self.add(p, depth + 1);
                }
                if !constants.is_empty() {
                    self.constants.push(ConftestConstants {
                        item: self.items.len(),
                        alone: alone.clone(),
                        constants: constants.clone(),
                    });
                }
                self.items.push(Item {
                    defs: vec![Ident::from(name)],
                    reads: reads.iter().map(|r| Ident::from(r.as_str())).collect(),
                    fold: Ok(Piece::BindIndexed(Ident::from(name), text.to_string())),
                    label: Some(format!("`{name}`, the fixture from {label},")),
                    kind: Kind::Fixture,
                    role: OriginRole::Fixture,
                    ..Item::blank(self.test_range, Kind::Other, OriginRole::Blocker)
                });
            }
            Some(Fixture::SolutionModule) => {
                self.test.aliases.insert(
                    name.into(),
                    Replacement::SolutionModule(Some(ctx.scope.module_binding.clone())),
                );
            }
            Some(Fixture::Unsupported { why }) => self.items.push(items::unfoldable_binding(
                name,
                self.test_range,
                why.clone(),
                false,
            )),
            None => self.items.push(unknown_fixture_item(name, self.test_range)),
        }
    }
}

/// A fixture of the file that returns a value: bound to it, after the fixtures it requests.
fn fixture_value_item<'a>(
    ctx: &Ctx<'_, 'a>,
    name: &str,
    expr: &'a Expr,
    params: &[String],
    range: TextRange,
) -> Item<'a> {
    let inert = effects::expr_is_inert(expr, &|n| {
        params.iter().any(|p| p == n) || is_global_bound(ctx, n)
    });
    Item {
        home: Some(Home::Fixture(name.to_string(), params.to_vec())),
        ..items::binding(
            name,
            expr,
            params.iter().map(|p| Ident::from(p.as_str())).collect(),
            range,
            Kind::Fixture,
            OriginRole::Fixture,
            inert,
        )
    }
}

/// A fixture the file does not define: pytest's own, or one from a conftest.py or a plugin.
fn unknown_fixture_item<'a>(name: &str, test_range: TextRange) -> Item<'a> {
    let builtin = PYTEST_FIXTURES.contains(&name);
    let why = if builtin {
        Collection::PytestFixture.because(format!(
            "`{name}` is a fixture pytest provides; it does not exist outside pytest"
        ))
    } else {
        Collection::FixtureNotInFile.because(format!("`{name}` is no fixture this file gives the test: a conftest.py or a plugin may provide it (if none does, pytest errors the test: fixture `{name}` not found), and its setup may change what the assertion reads"))
    };
    items::unfoldable_binding(name, test_range, words(why), builtin)
}
