//! Items: everything pytest runs before an assert, one item each — setup, parameters, fixtures, and
//! every top-level statement of the test, earlier asserts included — with the names it binds and
//! reads, whether it is inert (see `effects`), and how it is replayed inside an expression (or why
//! it cannot be).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use super::Ctx;
use crate::model::OriginRole;
use crate::module::BoundNames;
use crate::names::{self, Facts, Ident, Replacement};
use crate::rules::{self, Reason, Statements};

/// How an item is written inside a fold.
#[derive(Clone)]
pub enum Piece<'a> {
    /// `a = b = value` → `a := (b := value)`.
    Bind(&'a [Expr], &'a Expr),
    /// A single name bound to a value that is not a statement of the test (a parameter, a fixture).
    BindName(Ident, &'a Expr),
    /// A parameter taken by index from its parametrize list, replayed whole at import:
    /// `x := _bx_p0[1][0]` (the name, and the text after `:=`).
    BindIndexed(Ident, String),
    /// A parametrize list evaluated whole at import, bound to its temporary: its `pytest.param(a,
    /// b, id=…, marks=…)` entries are written `(a, b,)` (their `id`/`marks` run no user code).
    BindParams(Ident, &'a Expr),
    /// `a, *b = value` → `[(a := _a, b := _b) for _a, *_b in [value]]`.
    Unpack(&'a Expr, &'a Expr),
    /// An expression evaluated for its effect (a call statement).
    Eval(&'a Expr),
    /// An earlier assert: pytest stops the test when it fails, so the fold does too (`… and …`).
    Check(&'a Expr),
    /// An earlier call statement of a test-file helper whose body asserts (`check(f)`): a check
    /// that every assert of the call passes, the helper spelled as a lambda true when they all do
    /// (`resolve::helper_check`, whole), bound for this piece's name only where the fold
    /// reads it so (`assertion::helper_calls`).
    HelperCheck(&'a Expr),
    /// `obj.attr = value` or `obj[key] = value` → `[None for obj.attr in [value]]`: the value is
    /// evaluated first and stored through the target exactly as the assignment would.
    Store(&'a Expr, &'a Expr),
    /// `x += v` → `x := __import__("operator").iadd(x, v)`, which is exactly `+=` (in place for a
    /// list); on `obj.attr` or `obj[key]` with plain parts, the same value stored back.
    Augmented(&'a Expr, ast::Operator, &'a Expr),
    /// `del obj[key]` → `__import__("operator").delitem(obj, key)`.
    DelItem(&'a Expr, &'a Expr),
    /// `del obj.attr` → `__import__("builtins").delattr(obj, "attr")`.
    DelAttr(&'a Expr, &'a str),
    /// `from solution import x as y` inside the test → `y := <module>.x`: the object the module
    /// holds at that statement (a snapshot, as the import takes it), bound to the test's local; from
    /// a submodule of the solution, `y := __import__("m.sub", fromlist=("x",)).x`, the statement's
    /// own steps. The module, then the names.
    ImportNames(String, Vec<(Ident, String)>),
    /// `del x, y` of locals → `x := None, y := None`: the reference goes where the test let it go
    /// (a finalizer, a weak reference's callback run then). A later read of the name is unbound
    /// in pytest, so an assertion that reads it is not kept (`replay::replay_set`).
    Unbind(Vec<Ident>),
    /// `if c: A` / `elif d: B` / `else: C`, each branch of plain statements →
    /// `((A…, None) if (c) else (B…, None) if (d) else (C…, None))`: Python's conditional expression
    /// evaluates `c` once (one truth test, as `if` does), then exactly one branch, whose pieces run
    /// in order as the statements would; `d` only when `c` is false. A missing `else` is `None`.
    Cond(Vec<Clause<'a>>),
    /// `for t in it: body` (target, iterable, the body's pieces in order), replayed as a
    /// comprehension over the same iterable, evaluated once and iterated once: each iteration binds
    /// the target through a temporary (`t := _bx_t`, so that it stays bound after the loop, as the
    /// statement leaves it) and replays the body. Without asserts in the body it is an effect
    /// (`[(t := _bx_t, …) and None for _bx_t in it]`); with them, a guard that stops at the first
    /// failing assert, as pytest does (`not any(… or (…, not (check))[-1] for _bx_t in it)`).
    Loop(&'a Expr, &'a Expr, Vec<Piece<'a>>),
    /// `with self.assertRaises(E) as err: body` in a unittest test, the body expression statements
    /// (see `raises_block`): a check, always, as unittest makes it.
    Raises(Raises<'a>),
}

/// A unittest raises (or warns) block, written as the same context object's call form: its
/// `handle(name, (callable,), {})`, which unittest's context-manager form also goes through, runs
/// `with self: callable()` and keeps `exception` on the object:
/// `(err := self.assertRaises(E)).handle("assertRaises", (lambda: f(0),), {}) is None`; without
/// `as`, unittest's public call form `self.assertRaises(E, lambda: f(0)) is None`.
#[derive(Clone)]
pub struct Raises<'a> {
    /// `self.assertRaises(E)`, the context manager's expression, and the call it is.
    pub expr: &'a Expr,
    pub manager: &'a ast::ExprCall,
    /// The method (`assertRaises`, `assertRaisesRegex`, `assertWarns`, `assertWarnsRegex`).
    pub method: String,
    /// `as err`.
    pub target: Option<Ident>,
    /// The block's expression statements, in order.
    pub body: Vec<&'a Expr>,
    /// For `with pytest.raises(E, match=…):` (see `pytest_raises_block`): the expected exception
    /// and the pattern.
    pub pytest: Option<(&'a Expr, Option<&'a Expr>)>,
}

/// unittest's context managers whose `__enter__` returns the context object itself and whose
/// `handle` runs a callable inside it.
const RAISES_METHODS: &[&str] = &[
    "assertRaises",
    "assertRaisesRegex",
    "assertWarns",
    "assertWarnsRegex",
];

/// `with self.assertRaises(E) [as err]:` over expression statements (or `pass`), in a unittest test
/// whose instance is `this`: the item standing for it (its one piece is a check), or `None`.
pub fn raises_block<'a>(
    w: &'a ast::StmtWith,
    this: &str,
    is_local: &dyn Fn(&str) -> bool,
) -> Option<Item<'a>> {
    let [with_item] = w.items.as_slice() else {
        return None;
    };
    if w.is_async {
        return None;
    }
    let manager = crate::unittest::check_call(&with_item.context_expr, this)?;
    let method = match manager.func.as_ref() {
        Expr::Attribute(a) if RAISES_METHODS.contains(&a.attr.as_str()) => a.attr.to_string(),
        _ => return None,
    };
    let target = match with_item.optional_vars.as_deref() {
        None => None,
        // A warning's `filename` and `lineno` name the frame it points at, which a lambda changes.
        Some(Expr::Name(_)) if method.starts_with("assertWarns") => return None,
        Some(Expr::Name(n)) => Some(n.id.clone()),
        Some(_) => return None,
    };
    let mut body = Vec::new();
    for stmt in &w.body {
        match stmt {
            Stmt::Pass(_) => {}
            Stmt::Expr(e) if crate::unittest::check_call(&e.value, this).is_none() => {
                body.push(e.value.as_ref())
            }
            _ => return None,
        }
    }
    let mut item = Item::blank(w.range, Kind::Assert, OriginRole::Folded);
    let reads = Reads { is_local };
    reads.absorb(&mut item, &with_item.context_expr);
    for e in &body {
        let facts = Facts::of(e);
        // A walrus in the block binds in the test; inside the lambda it would bind in the lambda.
        if !facts.walrus.is_empty() {
            return None;
        }
        reads.absorb(&mut item, e);
    }
    item.defs.extend(target.clone());
    item.fold = Ok(Piece::Raises(Raises {
        expr: &with_item.context_expr,
        manager,
        method,
        target,
        body,
        pytest: None,
    }));
    Some(item)
}

/// `with pytest.raises(E[, match=p]):` over expression statements (or `pass`), whose `as` name (if
/// any) nothing reads: the item standing for it, a check written with unittest's own context
/// object, which catches, compares and fails as `pytest.raises` does:
/// `__import__("unittest").TestCase().assertRaises(E, lambda: f(0)) is None`; with `match`, the
/// exception it kept searched as pytest searches it, its text and its notes
/// (`_pytest._code.ExceptionInfo.match`, `re.search` on `str(exc)` and `__notes__` joined by lines).
pub fn pytest_raises_block<'a>(
    ctx: &Ctx<'_, 'a>,
    w: &'a ast::StmtWith,
    is_local: &dyn Fn(&str) -> bool,
) -> Option<Item<'a>> {
    let [with_item] = w.items.as_slice() else {
        return None;
    };
    if w.is_async || super::resolve::shadows_import(ctx) {
        return None;
    }
    let Expr::Call(manager) = &with_item.context_expr else {
        return None;
    };
    if ctx.scope.pytest_path(&with_item.context_expr).as_deref() != Some("pytest.raises") {
        return None;
    }
    let [expected] = manager.arguments.args.as_ref() else {
        return None;
    };
    if expected.is_starred_expr() {
        return None;
    }
    let mut matching = None;
    for k in manager.arguments.keywords.iter() {
        match k.arg.as_ref().map(|a| a.as_str()) {
            Some("match") => matching = Some(&k.value),
            _ => return None,
        }
    }
    if !matches!(
        with_item.optional_vars.as_deref(),
        None | Some(Expr::Name(_))
    ) {
        return None;
    }
    let mut body = Vec::new();
    for stmt in &w.body {
        match stmt {
            Stmt::Pass(_) => {}
            Stmt::Expr(e) => body.push(e.value.as_ref()),
            _ => return None,
        }
    }
    let mut item = Item::blank(w.range, Kind::Assert, OriginRole::Folded);
    let reads = Reads { is_local };
    reads.absorb(&mut item, expected);
    if let Some(m) = matching {
        reads.absorb(&mut item, m);
    }
    for e in &body {
        if !Facts::of(e).walrus.is_empty() {
            return None;
        }
        reads.absorb(&mut item, e);
    }
    item.fold = Ok(Piece::Raises(Raises {
        expr: &with_item.context_expr,
        manager,
        method: "assertRaises".into(),
        target: None,
        body,
        pytest: Some((expected, matching)),
    }));
    Some(item)
}

/// Why a `pytest.raises` / `warns` / `deprecated_call` block is not written as a check (see
/// `pytest_raises_block`; `target_read`: whether the test reads its `as` name after it): its rule,
/// when its shape says.
pub fn raises_rule(
    ctx: &Ctx,
    w: &ast::StmtWith,
    target_read: impl Fn(&str) -> bool,
) -> Option<rules::Raises> {
    use rules::Raises;
    let first = &w.items[0];
    if ctx.scope.pytest_path(&first.context_expr).as_deref() != Some("pytest.raises") {
        return Some(Raises::WarnsBlock);
    }
    if w.items.len() == 1
        && w.body
            .iter()
            .any(|s| !matches!(s, Stmt::Pass(_) | Stmt::Expr(_)))
    {
        return Some(Raises::RaisesBlockStatements);
    }
    let plain_arguments = match &first.context_expr {
        Expr::Call(c) => {
            matches!(c.arguments.args.as_ref(), [e] if !e.is_starred_expr())
                && c.arguments
                    .keywords
                    .iter()
                    .all(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "match"))
        }
        _ => false,
    };
    if !plain_arguments || w.items.len() != 1 || w.is_async {
        return Some(Raises::RaisesArguments);
    }
    match first.optional_vars.as_deref() {
        Some(Expr::Name(n)) if target_read(n.id.as_str()) => Some(Raises::RaisesTargetRead),
        Some(Expr::Name(_)) | None => None,
        Some(_) => Some(Raises::RaisesArguments),
    }
}

/// Whether a `with` statement's context is `pytest.raises`, `pytest.warns` or
/// `pytest.deprecated_call`, or unittest's `self.assertRaises(…)` (and the like).
fn raises_context(ctx: &Ctx, w: &ast::StmtWith) -> Option<rules::Raises> {
    w.items.iter().find_map(|i| {
        let e = &i.context_expr;
        if matches!(
            ctx.scope.pytest_path(e).as_deref(),
            Some("pytest.raises" | "pytest.warns" | "pytest.deprecated_call")
        ) {
            return Some(rules::Raises::WarnsBlock);
        }
        match e {
            Expr::Call(c) => match c.func.as_ref() {
                Expr::Attribute(a)
                    if RAISES_METHODS.contains(&a.attr.as_str())
                        && matches!(a.value.as_ref(), Expr::Name(_)) =>
                {
                    Some(rules::Raises::UnittestRaisesBlock)
                }
                _ => None,
            },
            _ => None,
        }
    })
}

/// One branch of a `Piece::Cond`: its condition (`None` for `else`) and its statements' pieces.
pub type Clause<'a> = (Option<&'a Expr>, Vec<Piece<'a>>);

/// Why an item cannot be replayed inside an expression.
#[derive(Clone)]
pub enum Blocker {
    /// Nothing to add to "… cannot be replayed in an expression" (`pass`, a bare annotation `x: int`).
    Silent,
    /// The reason: its rule and its words.
    Reason(Reason),
}

/// The `operator` function that performs an augmented assignment in place.
pub fn inplace_function(op: ast::Operator) -> &'static str {
    use ast::Operator::*;
    match op {
        Add => "iadd",
        Sub => "isub",
        Mult => "imul",
        MatMult => "imatmul",
        Div => "itruediv",
        Mod => "imod",
        Pow => "ipow",
        LShift => "ilshift",
        RShift => "irshift",
        BitOr => "ior",
        BitXor => "ixor",
        BitAnd => "iand",
        FloorDiv => "ifloordiv",
    }
}

/// Whether evaluating an augmented or deleted target's parts twice is the same as once: names and
/// literals only (`obj.attr`, `d[k]`, `d["key"]`).
fn plain_parts(target: &Expr) -> bool {
    let plain = |e: &Expr| matches!(e, Expr::Name(_)) || e.is_literal_expr();
    match target {
        Expr::Name(_) => true,
        Expr::Attribute(a) => plain(&a.value),
        Expr::Subscript(s) => plain(&s.value) && plain(&s.slice),
        _ => false,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Param,
    Fixture,
    /// `x = value` (single name): may be inlined.
    Assign,
    /// An earlier assert of the test.
    Assert,
    /// Any other statement, and setup.
    Other,
}

pub struct Item<'a> {
    pub range: TextRange,
    pub kind: Kind,
    pub role: OriginRole,
    /// Locals the item binds (or unbinds).
    pub defs: Vec<Ident>,
    /// Of `defs`, those the item may leave as they were (bound in some branches of an `if` only).
    pub maybe_defs: Vec<Ident>,
    /// Locals the item reads.
    pub reads: Vec<Ident>,
    /// Provably runs no user code and cannot raise: may be left out when nothing reads what it binds.
    pub inert: bool,
    /// The value a plain binding gives its name (for inlining).
    pub value: Option<&'a Expr>,
    /// Every name read by the expressions this item evaluates (for name resolution).
    pub loads: Vec<names::Load>,
    pub fold: Result<Piece<'a>, Blocker>,
    /// Shown in messages; `None` for statements, described from their source when needed.
    pub label: Option<String>,
    /// For a compound statement, where it is: "the `for` loop on line 3 (`for …`)".
    pub place: Option<String>,
}

impl Item<'_> {
    pub fn what(&self, ctx: &Ctx) -> String {
        match &self.label {
            Some(label) => label.clone(),
            None => format!(
                "`{}` on line {}",
                ctx.map.snippet(self.range),
                ctx.map.line(self.range.start())
            ),
        }
    }

    pub(super) fn blank(range: TextRange, kind: Kind, role: OriginRole) -> Self {
        Item {
            range,
            kind,
            role,
            defs: Vec::new(),
            maybe_defs: Vec::new(),
            reads: Vec::new(),
            inert: false,
            value: None,
            loads: Vec::new(),
            fold: Err(Blocker::Silent),
            label: None,
            place: None,
        }
    }
}

/// A parameter or fixture bound to a value evaluated outside the test body.
pub fn binding<'a>(
    name: &str,
    value: &'a Expr,
    reads: Vec<Ident>,
    range: TextRange,
    kind: Kind,
    role: OriginRole,
    inert: bool,
) -> Item<'a> {
    let facts = Facts::of(value);
    Item {
        defs: vec![Ident::from(name)],
        reads,
        inert,
        value: Some(value),
        loads: facts.loads,
        fold: Ok(Piece::BindName(Ident::from(name), value)),
        label: Some(format!("`{name}`")),
        ..Item::blank(range, kind, role)
    }
}

/// A name bound to something no expression can reproduce (the test class instance, a pytest
/// fixture). `inert`: creating it runs nothing that could change what an assertion reads.
pub fn unfoldable_binding<'a>(
    name: &str,
    range: TextRange,
    why: impl Into<Reason>,
    inert: bool,
) -> Item<'a> {
    Item {
        defs: vec![Ident::from(name)],
        inert,
        fold: Err(Blocker::Reason(why.into())),
        label: Some(format!("`{name}`")),
        ..Item::blank(range, Kind::Other, OriginRole::Blocker)
    }
}

/// Setup that runs before the test and cannot be replayed.
pub fn setup<'a>(range: TextRange, why: impl Into<Reason>) -> Item<'a> {
    let why = why.into();
    Item {
        label: Some(why.text.clone()),
        fold: Err(Blocker::Reason(
            why.map(|t| format!("{t}, and may change what the assertion reads")),
        )),
        ..Item::blank(range, Kind::Other, OriginRole::Blocker)
    }
}

/// A top-level statement of the test. `is_local(name)`: a local of the test (not an alias of the
/// solution). Inertness is decided by the caller, which knows what is bound.
pub fn statement<'a>(
    ctx: &Ctx<'_, 'a>,
    stmt: &'a Stmt,
    is_local: &dyn Fn(&str) -> bool,
) -> Item<'a> {
    let mut item = Item::blank(stmt.range(), Kind::Other, OriginRole::Folded);
    let reads = Reads { is_local };
    let unwritable = |what: &str| {
        Statements::UnwritableAssignment.because(format!(
            "{what} `{}` on line {} cannot be written as an expression",
            ctx.map.snippet(stmt.range()),
            ctx.map.line(stmt.range().start())
        ))
    };
    match stmt {
        Stmt::Assign(a) => {
            reads.absorb(&mut item, &a.value);
            assign(&mut item, a, &reads, || unwritable("the assignment"));
        }
        Stmt::AnnAssign(a) => match (a.target.as_ref(), a.value.as_deref()) {
            (Expr::Name(t), Some(value)) => {
                reads.absorb(&mut item, value);
                item.defs.push(t.id.clone());
                bind_one(&mut item, std::slice::from_ref(a.target.as_ref()), value);
            }
            // `x: int` binds nothing and evaluates nothing inside a function.
            (Expr::Name(_), None) => item.fold = Err(Blocker::Silent),
            _ => item.fold = Err(Blocker::Reason(unwritable("the annotated assignment"))),
        },
        Stmt::AugAssign(a) => {
            reads.absorb(&mut item, &a.value);
            reads.target(&mut item, &a.target);
            if let Expr::Name(n) = a.target.as_ref() {
                item.defs.push(n.id.clone());
            } else {
                reads.store(&mut item, &a.target);
            }
            item.fold = if plain_parts(&a.target) {
                Ok(Piece::Augmented(&a.target, a.op, &a.value))
            } else {
                Err(Blocker::Reason(Statements::AugmentedTargetTwice.because(format!(
                    "`{}` on line {} is an augmented assignment whose target would be evaluated twice in an expression",
                    ctx.map.snippet(stmt.range()),
                    ctx.map.line(stmt.range().start())
                ))))
            };
        }
        Stmt::Expr(e) => {
            reads.absorb(&mut item, &e.value);
            item.fold = Ok(Piece::Eval(&e.value));
        }
        Stmt::Assert(a) => {
            reads.absorb(&mut item, &a.test);
            if let Some(msg) = &a.msg {
                // The message is evaluated only when the assert fails, when the test stops anyway.
                let facts = Facts::of(msg);
                item.defs.extend(facts.walrus);
            }
            item.kind = Kind::Assert;
            item.fold = Ok(Piece::Check(&a.test));
        }
        Stmt::Delete(d) => delete(ctx, &mut item, d, &reads),
        Stmt::ImportFrom(i)
            if i.level == 0
                && i.module
                    .as_ref()
                    .is_some_and(|m| ctx.scope.is_solution_package(m.as_str()))
                && i.names.iter().all(|a| a.name.as_str() != "*") =>
        {
            let names: Vec<(Ident, String)> = i
                .names
                .iter()
                .map(|a| {
                    let bound = a.asname.as_ref().unwrap_or(&a.name);
                    (Ident::from(bound.as_str()), a.name.to_string())
                })
                .collect();
            item.defs.extend(names.iter().map(|(n, _)| n.clone()));
            let module = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
            item.fold = Ok(Piece::ImportNames(module, names));
        }
        Stmt::Pass(_) => item.fold = Err(Blocker::Silent),
        Stmt::If(i) => {
            compound(ctx, stmt, &mut item, is_local);
            conditional(ctx, i, &mut item, is_local);
        }
        Stmt::For(f) => {
            compound(ctx, stmt, &mut item, is_local);
            let mut seen = HashSet::default();
            item.defs.retain(|d| seen.insert(d.clone()));
            match for_loop(ctx, f, is_local) {
                Ok(lp) => {
                    item.fold = Ok(lp.piece);
                    item.reads = lp.reads;
                    item.loads = lp.loads;
                    for d in lp.defs {
                        if !item.defs.contains(&d) {
                            item.defs.push(d);
                        }
                    }
                }
                Err(why) => {
                    // The loop's own words, and the rule of what stops it.
                    if let Err(Blocker::Reason(r)) = &item.fold {
                        let place = r.text.clone();
                        item.fold = Err(Blocker::Reason(why.map(|t| format!("{place}: {t}"))));
                    }
                }
            }
        }
        _ => compound(ctx, stmt, &mut item, is_local),
    }
    item
}

/// `x = value` or `x: T = value` with one name: may be inlined.
fn bind_one<'a>(item: &mut Item<'a>, targets: &'a [Expr], value: &'a Expr) {
    item.kind = Kind::Assign;
    item.role = OriginRole::Inlined;
    item.value = Some(value);
    item.fold = Ok(Piece::Bind(targets, value));
}

/// An assignment statement (its value already absorbed): to names, an unpacking, an attribute or
/// an item, or something no expression writes (`unwritable` says so).
fn assign<'a>(
    item: &mut Item<'a>,
    a: &'a ast::StmtAssign,
    reads: &Reads,
    unwritable: impl Fn() -> Reason,
) {
    // `fib = lambda n: … fib(n - 1)`: a read inside a lambda or comprehension body runs later and
    // means the new binding, not an earlier one.
    let deferred: Vec<Ident> = Facts::of(&a.value)
        .loads
        .iter()
        .filter(|l| l.repeated)
        .map(|l| l.name.clone())
        .filter(|n| {
            a.targets
                .iter()
                .any(|t| matches!(t, Expr::Name(t) if &t.id == n))
        })
        .collect();
    item.reads.retain(|r| !deferred.contains(r));
    let targets = a.targets.as_slice();
    if targets.iter().all(|t| matches!(t, Expr::Name(_))) {
        for t in targets {
            if let Expr::Name(n) = t {
                item.defs.push(n.id.clone());
            }
        }
        if targets.len() == 1 {
            bind_one(item, targets, &a.value);
        }
        item.fold = Ok(Piece::Bind(targets, &a.value));
    } else if let [target @ (Expr::Tuple(_) | Expr::List(_))] = targets {
        names::collect_target_idents(target, &mut item.defs);
        item.fold = if is_plain_unpack(target) {
            Ok(Piece::Unpack(target, &a.value))
        } else {
            Err(Blocker::Reason(unwritable()))
        };
    } else if let [target @ (Expr::Attribute(_) | Expr::Subscript(_))] = targets {
        reads.store(item, target);
        reads.target(item, target);
        item.fold = Ok(Piece::Store(target, &a.value));
    } else {
        for t in targets {
            names::collect_target_idents(t, &mut item.defs);
            reads.target(item, t);
        }
        item.fold = Err(Blocker::Reason(unwritable()));
    }
}

/// `del x`, `del obj[key]`, `del obj.attr`: one item or attribute is replayed, nothing else.
fn delete<'a>(ctx: &Ctx, item: &mut Item<'a>, d: &'a ast::StmtDelete, reads: &Reads) {
    for t in &d.targets {
        match t {
            Expr::Name(n) => item.defs.push(n.id.clone()),
            other => {
                reads.store(item, other);
                reads.target(item, other);
            }
        }
    }
    item.fold = match d.targets.as_slice() {
        [Expr::Subscript(s)] if !matches!(s.slice.as_ref(), Expr::Slice(_)) => {
            Ok(Piece::DelItem(&s.value, &s.slice))
        }
        [Expr::Attribute(a)] => Ok(Piece::DelAttr(&a.value, a.attr.as_str())),
        names if names.iter().all(|t| matches!(t, Expr::Name(_))) => Ok(Piece::Unbind(
            names
                .iter()
                .filter_map(|t| t.as_name_expr().map(|n| n.id.clone()))
                .collect(),
        )),
        _ => Err(Blocker::Reason(Statements::UnreplayableStatement.because(
            format!(
                "`{}` on line {} cannot be replayed in an expression",
                ctx.map.snippet(d.range),
                ctx.map.line(d.range.start())
            ),
        ))),
    };
}

/// Compound statements, nested defs, imports, `global`: they bind what they bind, read every local
/// they mention, and cannot be replayed.
fn compound<'a>(
    ctx: &Ctx<'_, 'a>,
    stmt: &'a Stmt,
    item: &mut Item<'a>,
    is_local: &dyn Fn(&str) -> bool,
) {
    let line = ctx.map.line(stmt.range().start());
    let mut bound = BoundNames::default();
    bound.visit_stmt(stmt);
    item.defs
        .extend(bound.names.iter().map(|n| Ident::from(n.as_str())));
    let mut reads = LocalReads {
        is_local,
        names: Vec::new(),
    };
    reads.visit_stmt(stmt);
    item.reads.extend(reads.names);
    // A `for` loop's rule is that of what stops it (`for_loop`), which `statement` puts in place.
    let (kind, rule): (&str, rules::Rule) = match stmt {
        Stmt::For(_) => ("the `for` loop", Statements::UnreplayableStatement.into()),
        Stmt::While(_) => ("the `while` loop", Statements::WhileLoop.into()),
        Stmt::If(_) => ("the `if`", Statements::IfNotReplayable.into()),
        // A raises block that is not written as a check: the rule of why it is not.
        Stmt::With(w) => (
            "the `with` block",
            // At the top of a test, a `pytest.raises` block of a fine shape is refused only when
            // the test reads its `as` name after it.
            match raises_context(ctx, w) {
                Some(rules::Raises::WarnsBlock) => raises_rule(ctx, w, |_| true)
                    .map_or(Statements::WithBlock.into(), rules::Rule::from),
                Some(r) => r.into(),
                None => Statements::WithBlock.into(),
            },
        ),
        Stmt::Try(_) => ("the `try`", Statements::TryBlock.into()),
        Stmt::Match(_) => ("the `match`", Statements::MatchStatement.into()),
        Stmt::FunctionDef(_) => ("the nested function", Statements::NestedDefinition.into()),
        Stmt::ClassDef(_) => ("the nested class", Statements::NestedDefinition.into()),
        Stmt::Import(_) | Stmt::ImportFrom(_) => ("the import", Statements::ImportInTest.into()),
        Stmt::Global(_) => (
            "the `global` statement",
            Statements::GlobalDeclaration.into(),
        ),
        Stmt::Nonlocal(_) => (
            "the `nonlocal` statement",
            Statements::GlobalDeclaration.into(),
        ),
        // Only inside a loop (elsewhere a syntax error): in a branch of an `if` in the loop's body.
        Stmt::Break(_) | Stmt::Continue(_) => ("the statement", Statements::LoopExitsEarly.into()),
        _ => ("the statement", Statements::UnreplayableStatement.into()),
    };
    item.fold = Err(Blocker::Reason(match bound.names.first() {
        Some(n) if matches!(stmt, Stmt::Import(_) | Stmt::ImportFrom(_)) => {
            Statements::ImportInTest.because(format!("`{n}` is a module imported inside the test on line {line}; the evaluation namespace is the solution's, which need not have it"))
        }
        _ => {
            let place = format!(
                "{kind} on line {line} (`{}`)",
                ctx.map.snippet(stmt.range())
            );
            let what = format!("{place} cannot be folded into an expression");
            item.place = Some(place);
            rule.because(what)
        }
    }));
}

/// An `if` whose branches hold only statements that are replayed as pieces themselves (no assert,
/// no block that is not itself such an `if`, no `return`, import or `def`), and whose conditions
/// bind nothing (a walrus in a condition would bind in one scope or the other depending on the
/// branch): written as a conditional expression (`Piece::Cond`). Its item (already read as a
/// compound statement: what it binds and the locals it mentions) keeps the compound's reason
/// otherwise. A name bound in one branch only stays unbound when the other runs, in the fold's
/// lambda as in the test function (a local either way); module-level code needs more, which
/// `ModuleScope` checks before it replays an `if` (see `module::replayable_if`).
fn conditional<'a>(
    ctx: &Ctx<'_, 'a>,
    i: &'a ast::StmtIf,
    item: &mut Item<'a>,
    is_local: &dyn Fn(&str) -> bool,
) {
    let mut loads = Vec::new();
    // What the conditions and the branches' statements read (the compound's reading of the
    // whole statement counts the names it stores into as read).
    let mut reads: Vec<Ident> = Vec::new();
    let mut branch_defs: Vec<Vec<String>> = Vec::new();
    let mut clauses: Vec<Clause<'a>> = Vec::new();
    let branches = std::iter::once((Some(i.test.as_ref()), &i.body)).chain(
        i.elif_else_clauses
            .iter()
            .map(|c| (c.test.as_ref(), &c.body)),
    );
    for (test, body) in branches {
        if let Some(test) = test {
            let facts = Facts::of(test);
            if !facts.walrus.is_empty() {
                return;
            }
            reads.extend(
                facts
                    .loads
                    .iter()
                    .filter(|l| is_local(l.name.as_str()))
                    .map(|l| l.name.clone()),
            );
            loads.extend(facts.loads);
        }
        let mut pieces = Vec::new();
        // The names this branch certainly binds: not those a nested `if` binds on some paths only.
        let mut certain: Vec<String> = Vec::new();
        for s in body {
            if matches!(s, Stmt::Pass(_)) {
                continue;
            }
            let sub = statement(ctx, s, is_local);
            match sub.fold {
                // An assert, also one inside a loop, would run only on one path: not replayed.
                Ok(Piece::Check(_) | Piece::Loop(..)) | Err(Blocker::Silent) => return,
                // The `if`'s words, and the rule of the statement that stops it.
                Err(Blocker::Reason(inner)) => {
                    if let Err(Blocker::Reason(r)) = &mut item.fold {
                        r.rule = inner.rule;
                    }
                    return;
                }
                Ok(piece) => pieces.push(piece),
            }
            certain.extend(
                sub.defs
                    .iter()
                    .filter(|d| !sub.maybe_defs.contains(d))
                    .map(|d| d.to_string()),
            );
            loads.extend(sub.loads);
            reads.extend(sub.reads);
        }
        branch_defs.push(certain);
        clauses.push((test, pieces));
    }
    if i.elif_else_clauses.last().is_none_or(|c| c.test.is_some()) {
        branch_defs.push(Vec::new());
    }
    item.maybe_defs = item
        .defs
        .iter()
        .filter(|d| {
            !branch_defs
                .iter()
                .all(|b| b.iter().any(|n| n == d.as_str()))
        })
        .cloned()
        .collect();
    item.loads.extend(loads);
    item.reads = reads;
    item.fold = Ok(Piece::Cond(clauses));
    item.place = None;
}

/// A `for` loop whose body is plain statements, as a piece: what it binds and reads.
struct Loop<'a> {
    piece: Piece<'a>,
    /// Locals read before the loop binds them (the iterable's, and the body's first reads).
    reads: Vec<Ident>,
    loads: Vec<names::Load>,
    defs: Vec<Ident>,
}

/// `for t in it: body` with plain names as the target, no `else:`, and a body of statements that
/// each fold (nested loops included); otherwise why not, naming the statement.
fn for_loop<'a>(
    ctx: &Ctx<'_, 'a>,
    f: &'a ast::StmtFor,
    is_local: &dyn Fn(&str) -> bool,
) -> Result<Loop<'a>, Reason> {
    let at = |r: TextRange| {
        format!(
            "`{}` on line {}",
            ctx.map.snippet(r),
            ctx.map.line(r.start())
        )
    };
    if f.is_async {
        return Err(Statements::AsyncForLoop.because("it is an `async for`"));
    }
    if let Some(first) = f.orelse.first() {
        return Err(Statements::ForElse.because(format!(
            "its `else:` block ({}) runs only when no `break` ends it",
            at(first.range())
        )));
    }
    if !is_plain_unpack(&f.target) || matches!(f.target.as_ref(), Expr::Starred(_)) {
        return Err(Statements::LoopTargetNotNames.because(format!(
            "its target `{}` is not plain names",
            ctx.map.snippet(f.target.range())
        )));
    }
    let iter = Facts::of(&f.iter);
    if !iter.walrus.is_empty() {
        return Err(Statements::WalrusInLoopIterable.because("its iterable binds a name with `:=`"));
    }
    let mut reads: Vec<Ident> = iter
        .loads
        .iter()
        .filter(|l| is_local(&l.name))
        .map(|l| l.name.clone())
        .collect();
    let mut loads = iter.loads;
    let mut defs = Vec::new();
    names::collect_target_idents(&f.target, &mut defs);
    let mut bound: HashSet<Ident> = defs.iter().cloned().collect();
    let mut pieces = Vec::new();
    for s in &f.body {
        match s {
            Stmt::Pass(_) => continue,
            Stmt::Break(_) | Stmt::Continue(_) | Stmt::Return(_) | Stmt::Raise(_) => {
                return Err(Statements::LoopExitsEarly
                    .because(format!("{} leaves the iteration early", at(s.range()))));
            }
            _ => {}
        }
        let sub = statement(ctx, s, is_local);
        let piece = match sub.fold {
            Ok(piece) => piece,
            Err(Blocker::Silent) => {
                return Err(Statements::UnreplayableStatement.because(format!(
                    "{} cannot be replayed in an expression",
                    at(s.range())
                )))
            }
            Err(Blocker::Reason(why)) => return Err(why),
        };
        reads.extend(sub.reads.into_iter().filter(|r| !bound.contains(r)));
        bound.extend(sub.defs.iter().cloned());
        defs.extend(sub.defs);
        // The body runs once per iteration: a file constant it reads is one object across them,
        // bound once (see `assertion::shared_constants`), never a fresh literal per iteration.
        loads.extend(sub.loads.into_iter().map(|mut l| {
            l.repeated = true;
            l
        }));
        pieces.push(piece);
    }
    let piece = Piece::Loop(&f.target, &f.iter, pieces);
    Ok(Loop {
        piece,
        reads,
        loads,
        defs,
    })
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

/// Recording what an item reads: every name its expressions load (`loads`, for name resolution),
/// and of those the test's locals (`reads`).
struct Reads<'l> {
    is_local: &'l dyn Fn(&str) -> bool,
}

impl Reads<'_> {
    /// An expression the item evaluates: what it reads, and what its walruses bind.
    fn absorb<'a>(&self, item: &mut Item<'a>, expr: &'a Expr) {
        let facts = Facts::of(expr);
        for load in &facts.loads {
            if (self.is_local)(&load.name) {
                item.reads.push(load.name.clone());
            }
        }
        item.defs.extend(facts.walrus);
        item.maybe_defs.extend(facts.walrus_maybe);
        item.loads.extend(facts.loads);
    }

    /// `obj.attr = …` / `obj[k] = …`: the object is read (and changed).
    fn store(&self, item: &mut Item, target: &Expr) {
        if let Some(root) = names::root_name(target) {
            if (self.is_local)(root) {
                item.reads.push(Ident::from(root));
            }
        }
    }

    /// The names a target's sub-expressions read (`obj` and `key` in `obj.a[key] = …`).
    fn target<'a>(&self, item: &mut Item<'a>, target: &'a Expr) {
        let facts = match target {
            Expr::Name(n) => {
                if (self.is_local)(n.id.as_str()) {
                    item.reads.push(n.id.clone());
                }
                return;
            }
            // The whole target, so that `module.attr` is read as an attribute of the module.
            Expr::Attribute(_) => Facts::of(target),
            Expr::Subscript(s) => {
                let mut f = Facts::of(&s.value);
                f.loads.extend(Facts::of(&s.slice).loads);
                f
            }
            other => Facts::of(other),
        };
        for load in &facts.loads {
            if (self.is_local)(&load.name) {
                item.reads.push(load.name.clone());
            }
        }
        item.loads.extend(facts.loads);
    }
}

/// Local names a compound statement mentions.
struct LocalReads<'l> {
    is_local: &'l dyn Fn(&str) -> bool,
    names: Vec<Ident>,
}

impl<'a> Visitor<'a> for LocalReads<'_> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Name(n) = expr {
            if (self.is_local)(n.id.as_str()) {
                self.names.push(n.id.clone());
            }
        }
        ruff_python_ast::visitor::walk_expr(self, expr);
    }
}

/// Which names are certainly bound at each point of a test body, for inertness: parameters and
/// fixtures, and what straight-line statements bound. A name bound only inside a block may be
/// unbound.
#[derive(Default)]
pub struct Bound {
    pub names: HashSet<Ident>,
}

impl Bound {
    pub fn after(&mut self, item: &Item) {
        let straight = matches!(
            item.kind,
            Kind::Param | Kind::Fixture | Kind::Assign | Kind::Assert
        ) || matches!(
            item.fold,
            Ok(Piece::Bind(..)
                | Piece::Unpack(..)
                | Piece::Eval(..)
                | Piece::Store(..)
                | Piece::Augmented(..))
        );
        for d in &item.defs {
            if straight && !item.maybe_defs.contains(d) {
                self.names.insert(d.clone());
            } else {
                self.names.remove(d);
            }
        }
    }
}

/// Local aliases of the solution: `sol = _load_solution()`, `f = sol.f`, `from solution import f`.
pub type Aliases = HashMap<String, Replacement>;
