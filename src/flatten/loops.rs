//! Asserts inside a `for` loop: the loops around each, and proofs that a loop runs at least once.

use ruff_python_ast::{self as ast, Expr, Stmt};

use super::items::{self, Item};
use super::{is_builtin, Ctx, Test};
use crate::module::Global;

/// Every assert inside a loop whose body folds (only statements and nested loops), with the loops
/// around it, outermost first.
pub(super) fn loops_around_asserts(
    f: &ast::StmtFor,
) -> Vec<(&ast::StmtAssert, Vec<&ast::StmtFor>)> {
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
pub(super) struct Probe<'p, 's, 'a, 't> {
    pub(super) ctx: &'p Ctx<'s, 'a>,
    pub(super) test: &'p Test<'t, 'a>,
    pub(super) items: Option<&'p [Item<'a>]>,
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
    pub(super) fn nonempty(&self, iter: &Expr, fresh: &mut Vec<String>, depth: usize) -> bool {
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
