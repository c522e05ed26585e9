//! The test file's `from solution import X` statements, replayed.
//!
//! pytest runs them once, when it imports the test file: each binds a name of the *test module* to
//! the object the solution's `X` held then (a snapshot), and a solution without `X` makes pytest
//! fail to collect the whole file, so that no test of it passes. The bench loop's namespace is the
//! solution's own, where `X` is the live global: after solution code rebinds it (`COUNT += 1` under
//! `global COUNT`, `cache = {}` in a `reset()`), the test still reads the old object and the
//! expression would read the new one; and an expression that never reads a missing `Y` would pass.
//!
//! So a kept expression binds every imported name first, in import order, as a lambda's defaults
//! (`(lambda X=X, Y=Y: …)()`): defaults are evaluated before the body runs, from the fresh solution's
//! globals, exactly as the import read them; inside, `X` is the snapshot. The wrapper is left out
//! only when it provably changes nothing: the expression itself reads every imported name before
//! it runs any code (`add(1, 2) == 3` for a file that imports only `add`).

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr};
use ruff_python_parser::parse_expression;

use crate::module::{Global, ModuleScope};

/// The solution's names the file imports by name and still holds as imported, in import order
/// (each once).
pub fn snapshot_names(scope: &ModuleScope) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (bound, name) in &scope.imported_from_solution {
        let still =
            matches!(scope.globals.get(bound), Some(Global::SolutionName { name: n }) if n == name);
        if still && !out.contains(name) {
            out.push(name.clone());
        }
    }
    out
}

/// A read of `module.X` (the live global) in the assert or what it replays, where `X` is also
/// imported by name (a snapshot inside the wrapper): the two cannot both be written `X`.
pub fn live_read_of_snapshot<'e>(
    scope: &ModuleScope,
    exprs: impl IntoIterator<Item = &'e Expr>,
    names: &[String],
) -> Option<String> {
    use ruff_python_ast::visitor::{walk_expr, Visitor};
    // Without snapshots nothing can be found: the expressions are not even walked.
    if names.is_empty() {
        return None;
    }
    struct Finder<'s, 'n> {
        scope: &'s ModuleScope<'s>,
        names: &'n [String],
        found: Option<String>,
    }
    impl<'e> Visitor<'e> for Finder<'_, '_> {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Attribute(a) = expr {
                if let Expr::Name(m) = a.value.as_ref() {
                    let module = matches!(
                        self.scope.globals.get(m.id.as_str()),
                        Some(Global::SolutionModule)
                    );
                    if module && self.names.iter().any(|n| n == a.attr.as_str()) {
                        self.found.get_or_insert_with(|| a.attr.to_string());
                    }
                }
            }
            walk_expr(self, expr);
        }
    }
    let mut finder = Finder {
        scope,
        names,
        found: None,
    };
    for e in exprs {
        finder.visit_expr(e);
    }
    finder.found
}

/// `expr` with the imported `names` bound first as the defaults of its lambda (see the module
/// doc), or unchanged when it reads them all before running any code.
pub fn bind_snapshots(expr: String, names: &[String]) -> String {
    // Deeper than CPython compiles, the expression is dropped anyway (`emit::kept`); and walking it
    // must not recurse without bound.
    if names.is_empty() || crate::names::bracket_depth(&expr) > MAX_WALK_DEPTH {
        return expr;
    }
    let Ok(parsed) = parse_expression(&expr) else {
        return expr;
    };
    let mut seen = Seen {
        names: HashSet::default(),
        depth: 0,
    };
    reads_before_code(parsed.expr(), &mut seen);
    let seen = seen.names;
    if names.iter().all(|n| seen.contains(n.as_str())) {
        return expr;
    }
    let defaults = names
        .iter()
        .map(|n| format!("{n}={n}"))
        .collect::<Vec<_>>()
        .join(", ");
    // The fold's own lambda takes the defaults; anything else is wrapped in one.
    match expr
        .strip_prefix("(lambda: ")
        .and_then(|rest| rest.strip_suffix(")()"))
        .filter(|_| is_own_fold(parsed.expr()))
    {
        Some(body) => format!("(lambda {defaults}: {body})()"),
        None => format!("(lambda {defaults}: {expr})()"),
    }
}

/// `(lambda: BODY)()` as a whole (not a call whose callee merely starts with a lambda).
fn is_own_fold(expr: &Expr) -> bool {
    matches!(expr, Expr::Call(c)
        if c.arguments.is_empty()
            && matches!(c.func.as_ref(), Expr::Lambda(l) if l.parameters.is_none()))
}

/// Walk `expr` in evaluation order, collecting the names it reads, until the first operation that
/// may run code (a call, an attribute, an operator, a comparison, a subscript…); `true` once one
/// may have run.
fn reads_before_code<'e>(expr: &'e Expr, seen: &mut Seen<'e>) -> bool {
    // Too deep to follow: say code may have run (the wrapper is then written, which is always exact).
    if seen.depth >= MAX_WALK_DEPTH {
        return true;
    }
    seen.depth += 1;
    let ran = reads_in(expr, seen);
    seen.depth -= 1;
    ran
}

/// The names read so far, and how deep the walk is.
struct Seen<'e> {
    names: HashSet<&'e str>,
    depth: usize,
}

/// Nesting followed by [`reads_before_code`] at most (CPython compiles no deeper than 200 brackets).
const MAX_WALK_DEPTH: usize = 200;

fn reads_in<'e>(expr: &'e Expr, seen: &mut Seen<'e>) -> bool {
    match expr {
        Expr::Name(n) => {
            seen.names.insert(n.id.as_str());
            false
        }
        Expr::NumberLiteral(_)
        | Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_) => false,
        // The fold's own `(lambda: BODY)()`: calling it runs nothing of the user's before BODY.
        Expr::Call(c) if is_own_fold(expr) => match c.func.as_ref() {
            Expr::Lambda(l) => reads_before_code(&l.body, seen),
            _ => true,
        },
        Expr::Call(ast::ExprCall {
            func, arguments, ..
        }) => {
            let _ = reads_before_code(func, seen)
                || arguments
                    .args
                    .iter()
                    .any(|a| matches!(a, Expr::Starred(_)) || reads_before_code(a, seen));
            true
        }
        Expr::Named(n) => reads_before_code(&n.value, seen),
        Expr::Tuple(t) => t
            .elts
            .iter()
            .any(|e| matches!(e, Expr::Starred(_)) || reads_before_code(e, seen)),
        Expr::List(l) => l
            .elts
            .iter()
            .any(|e| matches!(e, Expr::Starred(_)) || reads_before_code(e, seen)),
        Expr::Compare(c) => {
            let _ = reads_before_code(&c.left, seen)
                || c.comparators
                    .first()
                    .is_some_and(|r| reads_before_code(r, seen));
            true
        }
        Expr::BinOp(b) => {
            let _ = reads_before_code(&b.left, seen) || reads_before_code(&b.right, seen);
            true
        }
        Expr::UnaryOp(u) => {
            reads_before_code(&u.operand, seen);
            true
        }
        Expr::BoolOp(b) => {
            if let Some(v) = b.values.first() {
                reads_before_code(v, seen);
            }
            true
        }
        Expr::Attribute(a) => {
            reads_before_code(&a.value, seen);
            true
        }
        Expr::Subscript(s) => {
            let _ = reads_before_code(&s.value, seen) || reads_before_code(&s.slice, seen);
            true
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::bind_snapshots;

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn names_read_before_any_code_need_no_wrapper() {
        let e = "add(1, 2) == 3".to_string();
        assert_eq!(bind_snapshots(e.clone(), &names(&["add"])), e);
        let f = "(lambda: (c := Cache(), c.put(1), c.get(1) == 1)[-1])()".to_string();
        assert_eq!(bind_snapshots(f.clone(), &names(&["Cache"])), f);
    }

    #[test]
    fn a_name_read_late_or_never_is_bound_first() {
        assert_eq!(
            bind_snapshots("area(2, 3) == 6".into(), &names(&["area", "perimeter"])),
            "(lambda area=area, perimeter=perimeter: area(2, 3) == 6)()"
        );
        assert_eq!(
            bind_snapshots("incr() == COUNT".into(), &names(&["incr", "COUNT"])),
            "(lambda incr=incr, COUNT=COUNT: incr() == COUNT)()"
        );
        assert_eq!(
            bind_snapshots(
                "(lambda: (reset(), cache == {})[-1])()".into(),
                &names(&["reset", "cache"])
            ),
            "(lambda reset=reset, cache=cache: (reset(), cache == {})[-1])()"
        );
        // A call whose callee is a lambda, not the fold's own: wrapped whole.
        assert_eq!(
            bind_snapshots("(lambda: f)()(1) == X".into(), &names(&["f", "X"])),
            "(lambda f=f, X=X: (lambda: f)()(1) == X)()"
        );
    }
}
