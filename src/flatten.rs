//! Flattening one test case into standalone assertions (the `full` stage).
//!
//! The test body is read as a sequence of *items* — parameter and fixture bindings, then each
//! top-level statement — each knowing which locals it binds, reads and may change (`touches`), whether
//! it calls anything, whether it may change state outside the test's own locals (a *barrier*), and
//! how to write it inside an expression (or why it cannot be).
//!
//! For each `assert`, a backward slice picks the items its value depends on. If they are plain
//! bindings, read once each and in their original order, their values are inlined. Otherwise the
//! slice is *folded*: replayed in order inside `(lambda: (x := …, x.put(…), <test>)[-1])()`, so names
//! stay local to the lambda and never clobber the solution's globals. What cannot be replayed (loops,
//! branches, `with`, `try`, augmented assignment, pytest fixtures) drops the assertion, naming the
//! variable and the line.
//!
//! One assumption is made and documented: a call whose value a test keeps (assigns) or checks (asserts)
//! is a query of the solution's module state; a call made for its effect (a statement) is not.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::collect::Case;
use crate::model::{Assertion, Origin, OriginRole, Status};
use crate::module::{BoundNames, Fixture, Global, ModuleScope};
use crate::names::{self, Facts, Ident, Replacement};
use crate::shape::Shape;
use crate::source::SourceMap;

/// pytest's own fixtures: requested by name, provided by pytest, never reproducible in an `eval`.
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

pub struct Ctx<'s, 'a> {
    pub scope: &'s ModuleScope<'a>,
    pub map: &'s SourceMap<'a>,
    pub slug: &'s str,
    /// Ranges of the file's syntax errors: a test containing one is not extracted.
    pub errors: &'s [TextRange],
}

/// How an item is written inside a fold.
#[derive(Clone)]
enum Piece<'a> {
    /// `a = b = value` → `a := (b := value)`.
    Bind(Vec<String>, &'a Expr),
    /// `target = value` with unpacking → `[… for target in [value]][0]`.
    Unpack(&'a Expr, &'a Expr),
    /// An expression evaluated for its effect (a call statement, an earlier assert).
    Eval(&'a Expr),
    /// `obj.attr = value` or `obj[key] = value` → `[None for obj.attr in [value]]`: the value is
    /// evaluated first and stored through the target exactly as the assignment would.
    Store(&'a Expr, &'a Expr),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Param,
    Fixture,
    /// `x = value` (single name): may be inlined.
    Assign,
    /// Any other statement.
    Other,
}

struct Item<'a> {
    range: TextRange,
    kind: Kind,
    role: OriginRole,
    defs: Vec<Ident>,
    kills: Vec<Ident>,
    reads: Vec<Ident>,
    touches: Vec<Ident>,
    has_call: bool,
    barrier: bool,
    /// The value a plain binding gives its name (for inlining).
    value: Option<&'a Expr>,
    /// Every name read by the expressions this item evaluates (for name resolution).
    loads: Vec<names::Load>,
    fold: Result<Piece<'a>, String>,
    /// Shown in messages; `None` for statements, described from their source when needed.
    label: Option<String>,
    /// For a compound statement, where it is: "the `for` loop on line 3 (`for …`)".
    place: Option<String>,
}

impl Item<'_> {
    fn what(&self, ctx: &Ctx) -> String {
        match &self.label {
            Some(label) => label.clone(),
            None => format!(
                "`{}` on line {}",
                ctx.map.snippet(self.range),
                ctx.map.line(self.range.start())
            ),
        }
    }
}

enum Resolution {
    Ok,
    /// Unresolved, with why, and whether it is an imported module.
    Unresolved(String, bool),
}

pub fn flatten_case(ctx: &Ctx, case: &Case, solution_names: &mut Vec<String>) -> Vec<Assertion> {
    let f = case.func;
    let mut out = Vec::new();
    let mut bound = BoundNames::default();
    for stmt in &f.body {
        bound.visit_stmt(stmt);
    }
    let mut locals: HashSet<String> = bound.names.iter().cloned().collect();
    let params: Vec<String> = f.parameters.iter().map(|p| p.name().to_string()).collect();
    locals.extend(params.iter().cloned());

    // Local aliases of the solution: `sol = _load_solution()`, `f = sol.f`, `from solution import f`.
    let mut aliases: HashMap<String, Replacement> = HashMap::default();
    let bind_count = |n: &str| bound.names.iter().filter(|b| b.as_str() == n).count();
    for stmt in &f.body {
        match stmt {
            Stmt::Assign(a) => {
                if let [Expr::Name(t)] = a.targets.as_slice() {
                    if bind_count(t.id.as_str()) != 1 {
                        continue;
                    }
                    if is_solution_module(ctx, &aliases, &a.value) {
                        aliases.insert(t.id.to_string(), Replacement::SolutionModule);
                    } else if let Some(attr) = solution_attr(ctx, &aliases, &a.value) {
                        aliases.insert(
                            t.id.to_string(),
                            Replacement::Value(Rc::new(names::Rendered::name(&attr))),
                        );
                    }
                }
            }
            Stmt::ImportFrom(i) if i.level == 0 => {
                let module = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
                if ctx
                    .scope
                    .solution_modules
                    .iter()
                    .any(|m| module == *m || module.starts_with(&format!("{m}.")))
                {
                    for a in &i.names {
                        let bound_as = a.asname.as_ref().unwrap_or(&a.name).to_string();
                        aliases.insert(
                            bound_as,
                            Replacement::Value(Rc::new(names::Rendered::name(a.name.as_str()))),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    let mut items: Vec<Item> = Vec::new();
    // Foreign locals: bound to something the extractor cannot reproduce; calls on them are effects.
    let mut foreign: HashSet<String> = HashSet::default();
    for (_, why) in ctx.scope.global_barriers.iter().chain(case.setup.iter()) {
        items.push(barrier_item(f.range, why.clone()));
    }
    // A solution module shared by every test, changed before this test runs (in file order).
    for change in ctx
        .scope
        .shared_changes
        .iter()
        .filter(|c| c.start() < f.range.start() && !f.range.contains_range(**c))
    {
        let mut item = barrier_item(
            *change,
            format!(
                "`{}` on line {} changes the solution module that all tests share",
                ctx.map.snippet(*change),
                ctx.map.line(change.start())
            ),
        );
        item.label = None;
        item.place = None;
        items.push(item);
    }
    let param_values: HashMap<&str, (&Expr, TextRange)> = case
        .params
        .iter()
        .zip(case.param_ranges.iter())
        .map(|((n, e), r)| (n.as_str(), (*e, *r)))
        .collect();
    let mut seen_fixtures = HashSet::default();
    for (i, p) in params.iter().enumerate() {
        if let Some((value, range)) = param_values.get(p.as_str()) {
            // Parametrize values are evaluated at module scope: they read no test locals.
            items.push(binding_item(
                p,
                value,
                Vec::new(),
                *range,
                Kind::Param,
                OriginRole::Parameter,
            ));
        } else if i == 0 && case.is_method {
            foreign.insert(p.clone());
            items.push(unfoldable_binding(
                p,
                f.range,
                format!("`{p}` is the test class instance; its state is set up outside this test"),
            ));
        } else {
            add_fixture(
                ctx,
                p,
                f.range,
                &mut items,
                &mut foreign,
                &mut locals,
                &mut aliases,
                &mut seen_fixtures,
                0,
            );
        }
    }

    let mut groups = Groups::default();
    let mut unreachable: Option<String> = None;
    if let Some(error) = ctx.errors.iter().find(|e| {
        through_line_end(ctx, f.range).contains_inclusive(e.start())
            || case
                .param_ranges
                .iter()
                .any(|r| r.contains_inclusive(e.start()))
    }) {
        unreachable = Some(format!(
            "the test has a syntax error on line {}: what the parser recovered is not what was written",
            ctx.map.line(error.start())
        ));
    }
    for stmt in &f.body {
        if let Some(why) = &unreachable {
            for a in nested_asserts(stmt) {
                out.push(dropped(ctx, case, a, why.clone(), vec![], vec![], vec![]));
            }
            continue;
        }
        match stmt {
            Stmt::Assert(a) => {
                out.push(assertion(
                    ctx,
                    case,
                    a,
                    &items,
                    &locals,
                    &aliases,
                    &mut groups,
                    solution_names,
                ));
                items.push(statement_item(ctx, stmt, &locals, &aliases, &foreign));
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
                        out.push(dropped(ctx, case, a, why.clone(), vec![], vec![], vec![]));
                    }
                }
                if is_pytest_exit(ctx, stmt) {
                    unreachable = Some(format!(
                        "`{}` on line {} ends (or may end) the test before it",
                        ctx.map.snippet(stmt.range()),
                        ctx.map.line(stmt.range().start())
                    ));
                }
                if !matches!(stmt, Stmt::Pass(_)) && !is_alias_stmt(stmt, &aliases) {
                    items.push(statement_item(ctx, stmt, &locals, &aliases, &foreign));
                }
            }
        }
    }
    out.sort_by_key(|a| a.span.start);
    out
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

fn is_alias_stmt(stmt: &Stmt, aliases: &HashMap<String, Replacement>) -> bool {
    match stmt {
        Stmt::Assign(a) => {
            matches!(a.targets.as_slice(), [Expr::Name(t)] if aliases.contains_key(t.id.as_str()))
        }
        Stmt::ImportFrom(i) => i
            .names
            .iter()
            .all(|n| aliases.contains_key(n.asname.as_ref().unwrap_or(&n.name).as_str())),
        _ => false,
    }
}

fn is_solution_module(ctx: &Ctx, aliases: &HashMap<String, Replacement>, expr: &Expr) -> bool {
    match expr {
        Expr::Name(n) if aliases.contains_key(n.id.as_str()) => {
            matches!(
                aliases.get(n.id.as_str()),
                Some(Replacement::SolutionModule)
            )
        }
        other => ctx.scope.is_solution_module_expr(other),
    }
}

fn solution_attr(ctx: &Ctx, aliases: &HashMap<String, Replacement>, expr: &Expr) -> Option<String> {
    match expr {
        Expr::Attribute(a) if is_solution_module(ctx, aliases, &a.value) => {
            Some(a.attr.to_string())
        }
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn add_fixture<'a>(
    ctx: &Ctx<'_, 'a>,
    name: &str,
    test_range: TextRange,
    items: &mut Vec<Item<'a>>,
    foreign: &mut HashSet<String>,
    locals: &mut HashSet<String>,
    aliases: &mut HashMap<String, Replacement>,
    seen: &mut HashSet<String>,
    depth: usize,
) {
    if !seen.insert(name.to_string()) {
        return;
    }
    locals.insert(name.to_string());
    match ctx.scope.fixtures.get(name) {
        _ if depth > 32 => {
            foreign.insert(name.into());
            items.push(unfoldable_binding(
                name,
                test_range,
                format!("fixture `{name}` depends on too many fixtures"),
            ));
        }
        Some(Fixture::Value {
            expr,
            params,
            range,
        }) => {
            for p in params {
                add_fixture(
                    ctx,
                    p,
                    test_range,
                    items,
                    foreign,
                    locals,
                    aliases,
                    seen,
                    depth + 1,
                );
            }
            items.push(binding_item(
                name,
                expr,
                params.iter().map(|p| Ident::from(p.as_str())).collect(),
                *range,
                Kind::Fixture,
                OriginRole::Fixture,
            ));
        }
        Some(Fixture::SolutionModule) => {
            aliases.insert(name.into(), Replacement::SolutionModule);
        }
        Some(Fixture::Unsupported { why }) => {
            foreign.insert(name.into());
            items.push(unfoldable_binding(name, test_range, why.clone()));
        }
        None => {
            foreign.insert(name.into());
            let why = if PYTEST_FIXTURES.contains(&name) {
                format!("`{name}` is a fixture pytest provides; it does not exist outside pytest")
            } else {
                format!("`{name}` is a fixture not defined in this file (a conftest.py or a plugin provides it)")
            };
            items.push(unfoldable_binding(name, test_range, why));
        }
    }
}

fn binding_item<'a>(
    name: &str,
    value: &'a Expr,
    reads: Vec<Ident>,
    range: TextRange,
    kind: Kind,
    role: OriginRole,
) -> Item<'a> {
    let facts = Facts::of(value);
    Item {
        range,
        kind,
        role,
        defs: vec![Ident::from(name)],
        kills: vec![Ident::from(name)],
        reads,
        touches: Vec::new(),
        has_call: facts.has_call,
        barrier: false,
        value: Some(value),
        loads: facts.loads,
        fold: Ok(Piece::Bind(vec![name.to_string()], value)),
        label: Some(format!("`{name}`")),
        place: None,
    }
}

fn unfoldable_binding<'a>(name: &str, range: TextRange, why: String) -> Item<'a> {
    Item {
        range,
        kind: Kind::Other,
        role: OriginRole::Blocker,
        defs: vec![Ident::from(name)],
        kills: vec![Ident::from(name)],
        reads: Vec::new(),
        touches: Vec::new(),
        has_call: false,
        barrier: false,
        value: None,
        loads: Vec::new(),
        fold: Err(why),
        label: Some(format!("`{name}`")),
        place: None,
    }
}

fn barrier_item<'a>(range: TextRange, why: String) -> Item<'a> {
    Item {
        range,
        kind: Kind::Other,
        role: OriginRole::Blocker,
        defs: Vec::new(),
        kills: Vec::new(),
        reads: Vec::new(),
        touches: Vec::new(),
        has_call: true,
        barrier: true,
        value: None,
        loads: Vec::new(),
        fold: Err(format!("{why}, and may change what the assertion reads")),
        label: Some(why),
        place: None,
    }
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

/// `pytest.skip()`, `pytest.xfail()`, `pytest.fail()`, `pytest.exit()` end the test; with
/// `pytest.importorskip()` it may end there. Asserts after them are not run as plain checks.
fn is_pytest_exit(ctx: &Ctx, stmt: &Stmt) -> bool {
    let value = match stmt {
        Stmt::Expr(e) => e.value.as_ref(),
        Stmt::Assign(a) => a.value.as_ref(),
        _ => return false,
    };
    matches!(value, Expr::Call(_))
        && matches!(
            ctx.scope.pytest_path(value).as_deref(),
            Some(
                "pytest.skip"
                    | "pytest.xfail"
                    | "pytest.fail"
                    | "pytest.exit"
                    | "pytest.importorskip"
            )
        )
}

/// Whether a call statement only calls a method of one of the test's own objects.
fn is_local_method_call(expr: &Expr, locals: &HashSet<String>, foreign: &HashSet<String>) -> bool {
    match expr {
        Expr::Call(call) => match call.func.as_ref() {
            Expr::Attribute(a) => names::root_name(&a.value)
                .is_some_and(|r| locals.contains(r) && !foreign.contains(r)),
            _ => false,
        },
        _ => false,
    }
}

fn statement_item<'a>(
    ctx: &Ctx<'_, 'a>,
    stmt: &'a Stmt,
    locals: &HashSet<String>,
    aliases: &HashMap<String, Replacement>,
    foreign: &HashSet<String>,
) -> Item<'a> {
    let line = ctx.map.line(stmt.range().start());
    let snippet = || ctx.map.snippet(stmt.range());
    let mut item = Item {
        range: stmt.range(),
        kind: Kind::Other,
        role: OriginRole::Folded,
        defs: Vec::new(),
        kills: Vec::new(),
        reads: Vec::new(),
        touches: Vec::new(),
        has_call: false,
        barrier: false,
        value: None,
        loads: Vec::new(),
        fold: Err(String::new()),
        label: None,
        place: None,
    };
    let is_local = |n: &str| locals.contains(n) && !aliases.contains_key(n);
    let absorb = |item: &mut Item<'a>, expr: &'a Expr| {
        let facts = Facts::of(expr);
        for load in &facts.loads {
            if is_local(&load.name) {
                item.reads.push(load.name.clone());
                if load.touched {
                    item.touches.push(load.name.clone());
                }
            }
        }
        for w in facts.walrus {
            item.defs.push(w.clone());
            item.kills.push(w);
        }
        item.has_call |= facts.has_call;
        item.loads.extend(facts.loads);
    };
    match stmt {
        Stmt::Assign(a) => {
            absorb(&mut item, &a.value);
            match a.targets.as_slice() {
                [Expr::Name(t)] => {
                    item.kind = Kind::Assign;
                    item.role = OriginRole::Inlined;
                    item.defs.push(t.id.clone());
                    item.kills.push(t.id.clone());
                    item.value = Some(&a.value);
                    item.fold = Ok(Piece::Bind(vec![t.id.to_string()], &a.value));
                }
                targets if targets.iter().all(|t| matches!(t, Expr::Name(_))) => {
                    let names: Vec<String> = targets
                        .iter()
                        .filter_map(|t| names::root_name(t).map(str::to_string))
                        .collect();
                    item.defs
                        .extend(names.iter().map(|n| Ident::from(n.as_str())));
                    item.kills
                        .extend(names.iter().map(|n| Ident::from(n.as_str())));
                    item.fold = Ok(Piece::Bind(names, &a.value));
                }
                [target @ (Expr::Tuple(_) | Expr::List(_))] if is_plain_unpack(target) => {
                    let mut names = Vec::new();
                    names::collect_target_idents(target, &mut names);
                    item.defs.extend(names.iter().cloned());
                    item.kills.extend(names);
                    item.fold = Ok(Piece::Unpack(target, &a.value));
                }
                [Expr::Attribute(attr)] => {
                    store_target(
                        &mut item,
                        &attr.value,
                        locals,
                        aliases,
                        foreign,
                        &snippet(),
                        line,
                    );
                    absorb(&mut item, &attr.value);
                    if item.fold.is_ok() || item.fold.as_ref().is_err_and(|e| e.is_empty()) {
                        item.fold = Ok(Piece::Store(&a.targets[0], &a.value));
                    }
                }
                [Expr::Subscript(sub)] if !matches!(sub.slice.as_ref(), Expr::Slice(_)) => {
                    store_target(
                        &mut item,
                        &sub.value,
                        locals,
                        aliases,
                        foreign,
                        &snippet(),
                        line,
                    );
                    absorb(&mut item, &sub.value);
                    absorb(&mut item, &sub.slice);
                    if item.fold.is_ok() || item.fold.as_ref().is_err_and(|e| e.is_empty()) {
                        item.fold = Ok(Piece::Store(&a.targets[0], &a.value));
                    }
                }
                targets => {
                    for t in targets {
                        let mut names = Vec::new();
                        names::collect_target_idents(t, &mut names);
                        item.defs.extend(names);
                        if let Some(root) = names::root_name(t) {
                            if is_local(root) {
                                item.touches.push(Ident::from(root));
                            } else {
                                item.barrier = true;
                            }
                        }
                    }
                    item.fold = Err(format!(
                        "the assignment `{}` on line {line} cannot be written as an expression",
                        snippet()
                    ));
                }
            }
        }
        Stmt::AnnAssign(a) => {
            if let (Expr::Name(t), Some(value)) = (a.target.as_ref(), a.value.as_deref()) {
                absorb(&mut item, value);
                item.kind = Kind::Assign;
                item.role = OriginRole::Inlined;
                item.defs.push(t.id.clone());
                item.kills.push(t.id.clone());
                item.value = Some(value);
                item.fold = Ok(Piece::Bind(vec![t.id.to_string()], value));
            } else {
                item.fold = Ok(Piece::Eval(&a.annotation));
                item.loads.clear();
            }
        }
        Stmt::AugAssign(a) => {
            absorb(&mut item, &a.value);
            if let Some(root) = names::root_name(&a.target) {
                if is_local(root) {
                    item.reads.push(Ident::from(root));
                    item.touches.push(Ident::from(root));
                    if matches!(a.target.as_ref(), Expr::Name(_)) {
                        item.defs.push(Ident::from(root));
                    }
                } else {
                    item.barrier = true;
                }
                item.fold = Err(format!("`{root}` is changed by `{}` on line {line}, an augmented assignment that cannot be replayed exactly", snippet()));
            }
        }
        Stmt::Expr(e) => {
            if matches!(
                e.value.as_ref(),
                Expr::StringLiteral(_) | Expr::NumberLiteral(_) | Expr::EllipsisLiteral(_)
            ) {
                item.fold = Ok(Piece::Eval(&e.value));
                return item;
            }
            absorb(&mut item, &e.value);
            item.barrier = item.has_call && !is_local_method_call(&e.value, locals, foreign);
            item.fold = Ok(Piece::Eval(&e.value));
        }
        Stmt::Assert(a) => {
            absorb(&mut item, &a.test);
            item.fold = Ok(Piece::Eval(&a.test));
        }
        Stmt::Delete(d) => {
            for t in &d.targets {
                if let Some(root) = names::root_name(t) {
                    if is_local(root) {
                        item.touches.push(Ident::from(root));
                        item.reads.push(Ident::from(root));
                        if matches!(t, Expr::Name(_)) {
                            item.kills.push(Ident::from(root));
                            item.defs.push(Ident::from(root));
                        }
                    } else {
                        item.barrier = true;
                    }
                }
            }
            item.fold = Err(format!(
                "`{}` on line {line} cannot be replayed in an expression",
                snippet()
            ));
        }
        _ => {
            // Compound statements, nested defs, imports, global: bind what they bind, may change
            // every local they mention, and cannot be replayed.
            let mut bound = BoundNames::default();
            bound.visit_stmt(stmt);
            item.defs
                .extend(bound.names.iter().map(|n| Ident::from(n.as_str())));
            let mut reads = LocalReads {
                locals,
                aliases,
                names: Vec::new(),
                effect: false,
                foreign,
            };
            reads.visit_stmt(stmt);
            item.reads.extend(reads.names.iter().cloned());
            item.touches.extend(reads.names);
            item.has_call = reads.effect || item.has_call;
            item.barrier = reads.effect;
            let kind = match stmt {
                Stmt::For(_) => "the `for` loop",
                Stmt::While(_) => "the `while` loop",
                Stmt::If(_) => "the `if`",
                Stmt::With(_) => "the `with` block",
                Stmt::Try(_) => "the `try`",
                Stmt::Match(_) => "the `match`",
                Stmt::FunctionDef(_) => "the nested function",
                Stmt::ClassDef(_) => "the nested class",
                Stmt::Import(_) | Stmt::ImportFrom(_) => "the import",
                _ => "the statement",
            };
            let what = match bound.names.first() {
                Some(n) if matches!(stmt, Stmt::Import(_) | Stmt::ImportFrom(_)) => {
                    format!("`{n}` is a module imported inside the test on line {line}; the evaluation namespace is the solution's, which need not have it")
                }
                _ => {
                    let place = format!("{kind} on line {line} (`{}`)", snippet());
                    let what = format!("{place} cannot be folded into an expression");
                    item.place = Some(place);
                    what
                }
            };
            item.fold = Err(what);
        }
    }
    item
}

fn is_plain_unpack(target: &Expr) -> bool {
    match target {
        Expr::Name(_) => true,
        Expr::Tuple(t) => t.elts.iter().all(is_plain_unpack),
        Expr::List(l) => l.elts.iter().all(is_plain_unpack),
        Expr::Starred(s) => matches!(s.value.as_ref(), Expr::Name(_)),
        _ => false,
    }
}

fn store_target(
    item: &mut Item,
    base: &Expr,
    locals: &HashSet<String>,
    aliases: &HashMap<String, Replacement>,
    foreign: &HashSet<String>,
    snippet: &str,
    line: u32,
) {
    match names::root_name(base) {
        Some(root)
            if locals.contains(root) && !aliases.contains_key(root) && !foreign.contains(root) =>
        {
            item.touches.push(Ident::from(root));
            item.reads.push(Ident::from(root));
            item.fold = Err(String::new());
        }
        Some(root) if matches!(aliases.get(root), Some(Replacement::SolutionModule)) => {
            item.barrier = true;
            item.fold = Err(format!(
                "`{snippet}` on line {line} sets an attribute of the solution module"
            ));
        }
        _ => {
            item.barrier = true;
            item.fold = Err(format!(
                "`{snippet}` on line {line} changes state outside the test"
            ));
        }
    }
}

/// Local names a compound statement mentions, and whether it contains a call made for its effect.
struct LocalReads<'l> {
    locals: &'l HashSet<String>,
    aliases: &'l HashMap<String, Replacement>,
    foreign: &'l HashSet<String>,
    names: Vec<Ident>,
    effect: bool,
}

impl<'a> Visitor<'a> for LocalReads<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if let Stmt::Expr(e) = stmt {
            if Facts::of(&e.value).has_call
                && !is_local_method_call(&e.value, self.locals, self.foreign)
            {
                self.effect = true;
            }
        }
        if let Stmt::Global(_) | Stmt::Nonlocal(_) = stmt {
            self.effect = true;
        }
        ruff_python_ast::visitor::walk_stmt(self, stmt);
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr {
            if self.locals.contains(n.id.as_str()) && !self.aliases.contains_key(n.id.as_str()) {
                self.names.push(n.id.clone());
            }
        }
        ruff_python_ast::visitor::walk_expr(self, expr);
    }
}

/// Union-find over local names: names that may share an object. Every item joins all the locals
/// it mentions; it is kept up to date as items are appended.
#[derive(Default)]
struct Groups {
    parent: HashMap<Ident, Ident>,
    seen: usize,
}

impl Groups {
    fn catch_up(&mut self, items: &[Item]) {
        for item in &items[self.seen..] {
            let mut all = item
                .defs
                .iter()
                .chain(item.reads.iter())
                .chain(item.touches.iter());
            if let Some(first) = all.next() {
                for other in all {
                    self.union(first, other);
                }
            }
        }
        self.seen = items.len();
    }

    fn find(&mut self, n: &Ident) -> Ident {
        let Some(parent) = self.parent.get(n).cloned() else {
            return n.clone();
        };
        if &parent == n {
            return parent;
        }
        let root = self.find(&parent);
        self.parent.insert(n.clone(), root.clone());
        root
    }
    fn union(&mut self, a: &Ident, b: &Ident) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent.insert(ra, rb);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn assertion(
    ctx: &Ctx,
    case: &Case,
    stmt: &ast::StmtAssert,
    items: &[Item],
    locals: &HashSet<String>,
    aliases: &HashMap<String, Replacement>,
    groups: &mut Groups,
    all_solution_names: &mut Vec<String>,
) -> Assertion {
    let test = stmt.test.as_ref();
    let facts = Facts::of(test);
    let is_local = |n: &str| locals.contains(n) && !aliases.contains_key(n);

    // The backward slice.
    groups.catch_up(items);
    let mut needed: HashSet<Ident> = facts
        .loads
        .iter()
        .filter(|l| is_local(l.name.as_str()))
        .map(|l| l.name.clone())
        .collect();
    let mut calls_after = facts.has_call;
    let mut relevant: Vec<usize> = Vec::new();
    // For each relevant item, the needed names that made it relevant (for reasons).
    let mut hits: HashMap<usize, Vec<Ident>> = HashMap::default();
    // Items that are in the slice because they may change a needed object (not because they bind
    // a needed name): the stateful case, which must be folded.
    let mut stateful = false;
    for (i, item) in items.iter().enumerate().rev() {
        let bound: Vec<&Ident> = item.defs.iter().filter(|d| needed.contains(*d)).collect();
        // Objects the names still needed here may share (a rebound name is a different object);
        // only an item that touches something needs them.
        let touched: Vec<&Ident> = if item.touches.is_empty() {
            Vec::new()
        } else {
            let needed_groups: HashSet<Ident> = needed.iter().map(|n| groups.find(n)).collect();
            item.touches
                .iter()
                .filter(|t| needed_groups.contains(&groups.find(t)))
                .collect()
        };
        let (binds, touches) = (!bound.is_empty(), !touched.is_empty());
        let barrier = item.barrier && calls_after;
        if binds || touches || barrier {
            relevant.push(i);
            let mut names: Vec<Ident> = bound.into_iter().chain(touched).cloned().collect();
            names.sort();
            names.dedup();
            hits.insert(i, names);
            stateful |= barrier || (touches && !binds);
            for k in &item.kills {
                needed.remove(k);
            }
            for r in item.reads.iter().chain(item.touches.iter()) {
                needed.insert(r.clone());
            }
            calls_after |= item.has_call;
        }
    }
    relevant.reverse();
    let line = ctx.map.line(stmt.range.start());

    // Shapes.
    let mut shapes = Vec::new();
    let reads_statement_local = facts.free_names().any(|n| {
        is_local(n)
            && !f_params(case).any(|p| p == n)
            && !items.iter().any(|it| {
                matches!(it.kind, Kind::Param | Kind::Fixture) && it.defs.iter().any(|d| d == n)
            })
    });
    if reads_statement_local
        || relevant.iter().any(|&i| {
            // A statement of the test (not a parameter, fixture or setup) binds what it reads.
            matches!(items[i].kind, Kind::Assign | Kind::Other)
                && items[i].label.is_none()
                && !items[i].defs.is_empty()
        })
    {
        shapes.push(Shape::VariableThenAssert);
    }
    if stateful {
        shapes.push(Shape::InstanceWithSideEffects);
    }
    if (!case.params.is_empty() && relevant.iter().any(|&i| items[i].kind == Kind::Param))
        || (case.parametrized
            && case.params.is_empty()
            && facts
                .free_names()
                .any(|n| case.func.parameters.iter().any(|p| p.name().as_str() == n)))
    {
        shapes.push(Shape::ParametrizedInputs);
    }

    // Resolve every non-local name the assertion and its slice read.
    let mut map: HashMap<String, Replacement> = aliases.clone();
    let mut unresolved: Vec<String> = Vec::new();
    let mut why: Vec<String> = Vec::new();
    let mut origins: Vec<Origin> = Vec::new();
    let mut solution_names: Vec<String> = Vec::new();
    let mut stdlib = false;
    let mut sources: Vec<(&[names::Load], Option<usize>)> = vec![(&facts.loads, None)];
    for &i in &relevant {
        sources.push((&items[i].loads, Some(i)));
    }
    for (loads, item) in &sources {
        for load in loads.iter() {
            if is_local(&load.name)
                || map.contains_key(load.name.as_str()) && !aliases.contains_key(load.name.as_str())
            {
                continue;
            }
            if let Some(r) = aliases.get(load.name.as_str()) {
                match r {
                    Replacement::SolutionModule => match &load.attr {
                        Some(attr) => solution_names.push(attr.to_string()),
                        None => {
                            push_unresolved(ctx, &mut unresolved, &mut why, &load.name, format!("`{}` is the solution module itself, which has no name in its own namespace", load.name), *item, items);
                        }
                    },
                    Replacement::Value(v) => solution_names.push(v.text.clone()),
                }
                continue;
            }
            match resolve_global(
                ctx,
                &load.name,
                load.attr.as_deref(),
                &mut map,
                &mut origins,
                &mut solution_names,
            ) {
                Resolution::Ok => {}
                Resolution::Unresolved(reason, is_import) => {
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
    }
    // Locals still needed with nothing binding them before the assert.
    for n in &needed {
        if !relevant.iter().any(|&i| items[i].defs.contains(n)) {
            unresolved.push(n.to_string());
            why.push(format!(
                "`{}` is not assigned before line {line}",
                n.as_str()
            ));
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
        return dropped(ctx, case, stmt, reason.clone(), unresolved, shapes, origins);
    }
    if !unresolved.is_empty() {
        unresolved.sort();
        unresolved.dedup();
        return dropped(ctx, case, stmt, why.join("; "), unresolved, shapes, origins);
    }

    // Inline when the slice is plain bindings read once each, in order.
    if stateful {
        // fall through to folding
    } else if let Some(expr) = try_inline(ctx, test, &facts, items, &relevant, &map, &mut origins) {
        // A walrus in the assert binds a name: inside a lambda it cannot clobber a solution global.
        let expr = if facts.walrus.is_empty() {
            expr
        } else {
            format!("(lambda: {expr})()")
        };
        return kept(ctx, case, stmt, expr, false, shapes, origins);
    }

    // Otherwise fold; every relevant item must be replayable.
    for (pos, &i) in relevant.iter().enumerate() {
        if let Err(blocker) = &items[i].fold {
            let mut origins = origins.clone();
            origins.push(Origin {
                role: OriginRole::Blocker,
                span: ctx.map.span(items[i].range),
            });
            let names = hits.get(&i).cloned().unwrap_or_default();
            let mut reason = if blocker.is_empty() {
                format!("{} cannot be folded", items[i].what(ctx))
            } else {
                blocker.clone()
            };
            // A statement (not a plain binding): say which needed names it binds or changes.
            if items[i].label.is_none() && !names.is_empty() {
                let listed: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                let verb = if names.iter().all(|n| items[i].defs.contains(n)) {
                    "assigned"
                } else {
                    "changed"
                };
                let be = if names.len() == 1 { "is" } else { "are" };
                reason = match &items[i].place {
                    Some(place) => format!(
                        "{} {be} {verb} inside {place}, which cannot be folded into an expression",
                        listed.join(", ")
                    ),
                    None if !reason.contains(&format!("`{}`", names[0])) => {
                        format!("{} {be} {verb} there: {reason}", listed.join(", "))
                    }
                    None => reason,
                };
            }
            // A binding that cannot be reproduced (a pytest fixture): cite where the test uses it.
            if items[i].label.is_some() && items[i].role == OriginRole::Blocker {
                if let Some(&user) = relevant[pos + 1..]
                    .iter()
                    .find(|&&j| items[i].defs.iter().any(|d| items[j].reads.contains(d)))
                {
                    origins.push(Origin {
                        role: OriginRole::Blocker,
                        span: ctx.map.span(items[user].range),
                    });
                    reason = format!(
                        "{} uses it and may change what the assertion reads; {reason}",
                        items[user].what(ctx)
                    );
                }
            }
            let names = names.iter().map(|n| n.to_string()).collect();
            return dropped(ctx, case, stmt, reason, names, shapes, origins);
        }
    }
    match fold(ctx, test, items, &relevant, &map, &solution_names) {
        Ok(expr) => {
            for &i in &relevant {
                origins.push(Origin {
                    role: if items[i].role == OriginRole::Inlined {
                        OriginRole::Folded
                    } else {
                        items[i].role
                    },
                    span: ctx.map.span(items[i].range),
                });
            }
            kept(ctx, case, stmt, expr, true, shapes, origins)
        }
        Err(reason) => dropped(ctx, case, stmt, reason, vec![], shapes, origins),
    }
}

fn f_params<'c>(case: &'c Case) -> impl Iterator<Item = &'c str> {
    case.func.parameters.iter().map(|p| p.name().as_str())
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
        Some(i) if items[i].barrier => why.push(format!(
            "{} may change what this assertion reads, and {}",
            items[i].what(ctx),
            reason
        )),
        Some(i) => why.push(format!(
            "{} feeds this assertion, and {}",
            items[i].what(ctx),
            reason
        )),
        None => why.push(reason),
    }
}

fn resolve_global(
    ctx: &Ctx,
    name: &str,
    attr: Option<&str>,
    map: &mut HashMap<String, Replacement>,
    origins: &mut Vec<Origin>,
    solution_names: &mut Vec<String>,
) -> Resolution {
    match ctx.scope.globals.get(name) {
        Some(Global::SolutionModule) => match attr {
            Some(attr) => {
                solution_names.push(attr.to_string());
                map.insert(name.to_string(), Replacement::SolutionModule);
                Resolution::Ok
            }
            None => Resolution::Unresolved(format!("`{name}` is the solution module itself, which has no name in its own namespace"), false),
        },
        Some(Global::SolutionName { name: real }) => {
            solution_names.push(real.clone());
            map.insert(name.to_string(), Replacement::Value(Rc::new(names::Rendered::name(real))));
            Resolution::Ok
        }
        Some(Global::Constant { value, range, .. }) => {
            origins.push(Origin { role: OriginRole::Constant, span: ctx.map.span(*range) });
            map.insert(name.to_string(), Replacement::Value(Rc::clone(value)));
            Resolution::Ok
        }
        Some(Global::Import { module, line }) => Resolution::Unresolved(
            if module == name {
                format!("`{name}` is a module the test file imports (line {line}); the evaluation namespace is the solution's, which need not have it")
            } else {
                format!("`{name}` comes from `{module}`, imported by the test file (line {line}); the evaluation namespace is the solution's, which need not have it")
            },
            true,
        ),
        Some(Global::Helper { kind, line }) => {
            if ctx.scope.loaders.contains(name) {
                if let Some(attr) = attr {
                    solution_names.push(attr.to_string());
                    map.insert(name.to_string(), Replacement::SolutionModule);
                    return Resolution::Ok;
                }
                Resolution::Unresolved(format!("`{name}` loads the solution; only `{name}().X` can be rewritten"), false)
            } else {
                Resolution::Unresolved(format!("`{name}` is a {kind} the test file defines (line {line}), not part of the solution"), false)
            }
        }
        Some(Global::Computed { line, why }) => Resolution::Unresolved(format!("`{name}` (line {line}) {why}"), false),
        None => {
            if ruff_python_stdlib::builtins::is_python_builtin(name, 14, false) {
                Resolution::Ok
            } else if ctx.scope.star_import {
                solution_names.push(name.to_string());
                Resolution::Ok
            } else {
                Resolution::Unresolved(format!("`{name}` is not defined in the test file"), false)
            }
        }
    }
}

/// Inline the slice's bindings into the test, if that is faithful.
fn try_inline(
    ctx: &Ctx,
    test: &Expr,
    facts: &Facts,
    items: &[Item],
    relevant: &[usize],
    map: &HashMap<String, Replacement>,
    origins: &mut Vec<Origin>,
) -> Option<String> {
    if relevant.iter().any(|&i| {
        let it = &items[i];
        !matches!(it.kind, Kind::Assign | Kind::Param | Kind::Fixture)
            || it.barrier
            || it.defs.len() != 1
    }) {
        return None;
    }
    // How many times each binding's value would be evaluated once inlined.
    let mut pending: HashMap<Ident, usize> = HashMap::default();
    for load in &facts.loads {
        let weight = if load.repeated { 2 } else { 1 };
        *pending.entry(load.name.clone()).or_default() += weight;
    }
    let mut effectful: Vec<usize> = Vec::new();
    for &i in relevant.iter().rev() {
        let it = &items[i];
        let name = &it.defs[0];
        let count = pending.remove(name).unwrap_or(0);
        let value = it.value?;
        if count == 0 {
            // In the slice without being read: it matters for its effect, which inlining would lose.
            return None;
        }
        if count > 1 && !names::is_immutable_literal(value) {
            return None;
        }
        if count > 0 && it.has_call {
            effectful.push(i);
        }
        // The item's loads are its value's (a plain binding evaluates nothing else).
        for load in &it.loads {
            let weight = if load.repeated { 2 } else { 1 };
            *pending.entry(load.name.clone()).or_default() += count * weight;
        }
    }
    // Calls must keep their order. With more than one unit that calls something (inlined values
    // and the test's own calls), the inlined values must be read directly by the test,
    // unconditionally, in assignment order, and every call of the test's own must run after them:
    // it either contains them (`len(result)`: arguments first) or comes after them.
    if effectful.len() + usize::from(facts.has_call) > 1 {
        effectful.reverse();
        let mut positions = Vec::new();
        for &i in &effectful {
            let name = &items[i].defs[0];
            let load = facts.loads.iter().find(|l| &l.name == name)?;
            if load.conditional {
                return None;
            }
            positions.push(load.range.start());
        }
        if positions.windows(2).any(|w| w[0] > w[1]) {
            return None;
        }
        let runs_after = |call: &TextRange| {
            positions
                .iter()
                .all(|p| call.contains(*p) || call.start() > *p)
        };
        if !facts.calls.iter().all(runs_after) {
            return None;
        }
    }
    let mut combined = map.clone();
    for &i in relevant {
        let it = &items[i];
        let value = names::render(it.value?, &combined, ctx.map).ok()?;
        combined.insert(it.defs[0].to_string(), Replacement::Value(Rc::new(value)));
    }
    let expr = names::render(test, &combined, ctx.map).ok()?;
    for &i in relevant {
        origins.push(Origin {
            role: items[i].role,
            span: ctx.map.span(items[i].range),
        });
    }
    // A walrus, yield, starred value or bare tuple cannot stand alone as an expression: the source's
    // parentheses are outside the node's range, so put them back.
    Some(if expr.prec < ruff_python_ast::OperatorPrecedence::Lambda {
        format!("({})", expr.text)
    } else {
        expr.text
    })
}

/// Replay the slice in order inside a lambda: `(lambda: (x := …, …, <test>)[-1])()`.
fn fold(
    ctx: &Ctx,
    test: &Expr,
    items: &[Item],
    relevant: &[usize],
    map: &HashMap<String, Replacement>,
    solution_names: &[String],
) -> Result<String, String> {
    let bound: HashSet<&str> = relevant
        .iter()
        .flat_map(|&i| items[i].defs.iter().map(|d| d.as_str()))
        .collect();
    if let Some(clash) = solution_names.iter().find(|n| bound.contains(n.as_str())) {
        return Err(format!("the test binds a local `{clash}`, which would hide the solution's `{clash}` once the assertion is folded"));
    }
    let render = |e: &Expr| -> Result<String, String> {
        names::render(e, map, ctx.map).map(|r| r.text).map_err(|c| {
            format!(
                "rewriting `{}` would be captured by `{}`",
                c.name, c.captured_by
            )
        })
    };
    let wrap = |e: &Expr, s: String| -> String {
        if matches!(e, Expr::Tuple(t) if !t.parenthesized)
            || matches!(
                e,
                Expr::Named(_) | Expr::Lambda(_) | Expr::Yield(_) | Expr::Starred(_)
            )
        {
            format!("({s})")
        } else {
            s
        }
    };
    // Build from the end so an unpacking can wrap everything after it.
    let mut tail: Vec<String> = vec![wrap(test, render(test)?)];
    for &i in relevant.iter().rev() {
        let piece = items[i].fold.clone()?;
        match piece {
            Piece::Bind(names, value) => {
                let mut s = wrap(value, render(value)?);
                for (k, n) in names.iter().enumerate().rev() {
                    s = if k == 0 {
                        format!("{n} := {s}")
                    } else {
                        format!("({n} := {s})")
                    };
                }
                tail.insert(0, s);
            }
            Piece::Eval(e) => {
                if matches!(e, Expr::NoneLiteral(_) | Expr::StringLiteral(_)) {
                    continue;
                }
                tail.insert(0, wrap(e, render(e)?));
            }
            Piece::Store(target, value) => {
                tail.insert(
                    0,
                    format!(
                        "[None for {} in [{}]]",
                        render(target)?,
                        wrap(value, render(value)?)
                    ),
                );
            }
            Piece::Unpack(target, value) => {
                let inner = if tail.len() == 1 {
                    tail.remove(0)
                } else {
                    format!("({})[-1]", tail.join(", "))
                };
                let mut names = Vec::new();
                names::collect_targets_vec(target, &mut names);
                tail = vec![format!(
                    "[{inner} for {} in [{}]][0]",
                    ctx.map.text(target.range()),
                    wrap(value, render(value)?)
                )];
            }
        }
    }
    let body = if tail.len() == 1 {
        tail.remove(0)
    } else {
        format!("({})[-1]", tail.join(", "))
    };
    // Only a walrus binds a name in the evaluation namespace: a lambda keeps those names local.
    let binds = relevant
        .iter()
        .any(|&i| matches!(items[i].fold, Ok(Piece::Bind(..))))
        || !Facts::of(test).walrus.is_empty();
    Ok(if binds {
        format!("(lambda: {body})()")
    } else {
        body
    })
}

fn base(ctx: &Ctx, case: &Case, stmt: &ast::StmtAssert) -> Assertion {
    let (line, column) = ctx.map.line_column(stmt.range.start());
    Assertion {
        test: case.id.clone(),
        line,
        column,
        source: ctx.map.text(stmt.range).to_string(),
        status: Status::Kept,
        expr: None,
        reason: None,
        unresolved: None,
        shapes: Vec::new(),
        span: ctx.map.span(stmt.range),
        origins: Vec::new(),
    }
}

/// CPython refuses an expression with more than 200 nested brackets ("too many nested
/// parentheses"); inlining can add levels to what the test file had.
const CPYTHON_MAX_NESTING: usize = 200;

/// A kept assertion. A `folded` expression was assembled from rendered pieces: in debug builds
/// (every test run) it is parsed again, so a construction bug fails the fixtures, the bench checks
/// and the fuzz tests loudly. Either way, an expression deeper than CPython accepts is dropped.
fn kept(
    ctx: &Ctx,
    case: &Case,
    stmt: &ast::StmtAssert,
    expr: String,
    folded: bool,
    shapes: Vec<Shape>,
    origins: Vec<Origin>,
) -> Assertion {
    if names::bracket_depth(&expr) > CPYTHON_MAX_NESTING {
        return too_nested(ctx, case, stmt, shapes, origins);
    }
    debug_assert!(
        !folded || ruff_python_parser::parse_expression(&expr).is_ok(),
        "a folded expression does not parse: {expr}"
    );
    let mut a = base(ctx, case, stmt);
    a.expr = Some(expr);
    a.shapes = shapes;
    a.origins = dedup_origins(origins);
    a
}

fn too_nested(
    ctx: &Ctx,
    case: &Case,
    stmt: &ast::StmtAssert,
    shapes: Vec<Shape>,
    origins: Vec<Origin>,
) -> Assertion {
    dropped(
        ctx,
        case,
        stmt,
        format!("once flattened it nests more than {CPYTHON_MAX_NESTING} brackets, which CPython refuses to compile"),
        vec![],
        shapes,
        origins,
    )
}

fn dropped(
    ctx: &Ctx,
    case: &Case,
    stmt: &ast::StmtAssert,
    reason: String,
    unresolved: Vec<String>,
    shapes: Vec<Shape>,
    origins: Vec<Origin>,
) -> Assertion {
    let mut a = base(ctx, case, stmt);
    a.status = Status::Dropped;
    a.reason = Some(reason);
    a.unresolved = Some(unresolved);
    a.shapes = shapes;
    a.origins = dedup_origins(origins);
    a
}

fn dedup_origins(mut origins: Vec<Origin>) -> Vec<Origin> {
    origins.sort_by_key(|o| (o.span.start, o.span.end));
    origins.dedup_by(|a, b| a.span == b.span);
    origins
}
