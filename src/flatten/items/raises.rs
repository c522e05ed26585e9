//! Raises blocks as items: unittest's `with self.assertRaises(E):` and pytest's
//! `with pytest.raises(E):`, each written as a check, or the rule that keeps it from being one.

use ruff_python_ast::{self as ast, Expr, Stmt};

use super::super::Ctx;
use super::reads::Reads;
use super::{Item, Kind, Piece};
use crate::model::OriginRole;
use crate::names::{Facts, Ident};
use crate::rules;

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
/// any) the test reads after it only as `.value` or `.type` (`bind_target`: it does read it; see
/// `emit`'s `raises`, which binds it to a stand-in with those two attributes): the item standing for it, a check written with unittest's own context
/// object, which catches, compares and fails as `pytest.raises` does:
/// `__import__("unittest").TestCase().assertRaises(E, lambda: f(0)) is None`; with `match`, the
/// exception it kept searched as pytest searches it, its text and its notes
/// (`_pytest._code.ExceptionInfo.match`, `re.search` on `str(exc)` and `__notes__` joined by lines).
pub fn pytest_raises_block<'a>(
    ctx: &Ctx<'_, 'a>,
    w: &'a ast::StmtWith,
    is_local: &dyn Fn(&str) -> bool,
    bind_target: bool,
) -> Option<Item<'a>> {
    let [with_item] = w.items.as_slice() else {
        return None;
    };
    if w.is_async || super::super::resolve::shadows_import(ctx) {
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
    let target = match with_item.optional_vars.as_deref() {
        None => None,
        Some(Expr::Name(n)) => bind_target.then(|| n.id.clone()),
        Some(_) => return None,
    };
    let mut body = Vec::new();
    for stmt in &w.body {
        match stmt {
            Stmt::Pass(_) => {}
            Stmt::Expr(e) => body.push(e.value.as_ref()),
            _ => return None,
        }
    }
    // The block's own code reading its `as` name sees pytest's `ExceptionInfo` before it is
    // filled, which the stand-in is not.
    if let Some(t) = &target {
        if body.iter().any(|e| {
            crate::walk::any_expr(
                *e,
                crate::walk::Scope::All,
                |x: &Expr| matches!(x, Expr::Name(n) if n.id.as_str() == t.as_str()),
            )
        }) {
            return None;
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
    item.defs.extend(target.clone());
    item.fold = Ok(Piece::Raises(Raises {
        expr: &with_item.context_expr,
        manager,
        method: "assertRaises".into(),
        target,
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
pub(super) fn raises_context(ctx: &Ctx, w: &ast::StmtWith) -> Option<rules::Raises> {
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

/// The check a `pytest.raises(E[, match=p]) [as excinfo]:` block is written as (see
/// `pytest_raises_block`), from the texts of `E`, the block's body and `p`, and whether it binds
/// names. `as excinfo`, read after only as `.value` and `.type` (`walk`), is bound to a stand-in
/// with the exception unittest's context kept and its type, the objects `ExceptionInfo` holds.
pub fn pytest_raises_text(
    expected: &str,
    body: &str,
    pattern: Option<&str>,
    target: Option<&str>,
) -> (String, bool) {
    const KEEP: &str = "(_bx_raised := __import__(\"unittest\").TestCase().assertRaises(";
    let bind = target.map(|t| {
        format!(" and [{t} := (lambda b, e: __import__(\"types\").SimpleNamespace(value=e, type=b.type(e)))(__import__(\"builtins\"), _bx_raised.exception)]")
    });
    match (pattern, bind) {
        (None, None) => (
            format!("__import__(\"unittest\").TestCase().assertRaises({expected}, lambda: {body}) is None"),
            false,
        ),
        (None, Some(bind)) => (
            format!("{KEEP}{expected})).handle(\"assertRaises\", (lambda: {body},), {{}}) is None{bind}"),
            true,
        ),
        (Some(pattern), bind) => (
            format!(
                "{KEEP}{expected})).handle(\"assertRaises\", (lambda: {body},), {{}}) is None{} and __import__(\"re\").search({pattern}, (lambda b, e: \"\\n\".join([e.message if b.isinstance(e, b.getattr(b, \"BaseExceptionGroup\", ())) else b.str(e), *b.getattr(e, \"__notes__\", [])]))(__import__(\"builtins\"), _bx_raised.exception)) is not None",
                bind.unwrap_or_default()
            ),
            true,
        ),
    }
}
