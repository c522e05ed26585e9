//! The effect model: **replay is the default, omission needs a proof.**
//!
//! Before an `assert`, pytest has imported the test file, run the test's setup and fixtures, and
//! executed every earlier statement of the test, earlier asserts (with their truth test) included.
//! In Python almost anything can run code the author did not write: a call, an attribute read (a
//! property, `__getattr__`), a subscript, a truth test, iteration, an operator, a "pure" builtin
//! applied to a user object (`len` calls `__len__`). So an assertion's expression replays all of it,
//! in order, and may leave out an item only when it is *inert*: it cannot run such code and cannot
//! raise, so pytest's run and the replay agree without it. What is neither replayable nor inert
//! drops the assertion.
//!
//! Inert, and nothing else: literals; tuples and lists of inert values; sets and dicts whose keys
//! are hashable literals; reads of names that are certainly bound; lambdas with inert defaults;
//! `def` and `class` statements that run nothing when executed (no decorators, builtin bases, inert
//! defaults and class bodies); imports of the standard library; `pass`. Not a `del` of a name, nor
//! an assignment that rebinds a name already bound: each may drop the last reference to an object,
//! and its finalizer, a weak reference's callback or a generator's `finally` runs then.

use ruff_python_ast::{self as ast, Expr, Stmt, UnaryOp};

use crate::stdlib::{is_builtin_base, is_stdlib};

/// Whether evaluating `expr` can neither run user code nor raise. `bound(name)` says whether a
/// name is certainly bound where the expression is evaluated.
pub fn expr_is_inert(expr: &Expr, bound: &dyn Fn(&str) -> bool) -> bool {
    match expr {
        Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::NumberLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_) => true,
        Expr::FString(f) => f
            .value
            .elements()
            .all(|e| matches!(e, ast::InterpolatedStringElement::Literal(_))),
        Expr::Name(n) => bound(n.id.as_str()),
        Expr::Tuple(t) => t
            .elts
            .iter()
            .all(|e| !e.is_starred_expr() && expr_is_inert(e, bound)),
        Expr::List(l) => l
            .elts
            .iter()
            .all(|e| !e.is_starred_expr() && expr_is_inert(e, bound)),
        Expr::Set(s) => s.elts.iter().all(is_hashable_literal),
        Expr::Dict(d) => d.items.iter().all(|item| {
            item.key.as_ref().is_some_and(is_hashable_literal) && expr_is_inert(&item.value, bound)
        }),
        Expr::UnaryOp(u) => {
            matches!(u.op, UnaryOp::USub | UnaryOp::UAdd)
                && matches!(u.operand.as_ref(), Expr::NumberLiteral(_))
        }
        Expr::Lambda(l) => l.parameters.as_ref().is_none_or(|p| {
            p.iter_non_variadic_params()
                .filter_map(|p| p.default.as_deref())
                .all(|d| expr_is_inert(d, bound))
        }),
        _ => false,
    }
}

/// A literal whose hash is computed by builtins alone and cannot fail.
pub fn is_hashable_literal(expr: &Expr) -> bool {
    match expr {
        Expr::StringLiteral(_)
        | Expr::BytesLiteral(_)
        | Expr::NumberLiteral(_)
        | Expr::BooleanLiteral(_)
        | Expr::NoneLiteral(_)
        | Expr::EllipsisLiteral(_) => true,
        Expr::UnaryOp(u) => {
            matches!(u.op, UnaryOp::USub | UnaryOp::UAdd)
                && matches!(u.operand.as_ref(), Expr::NumberLiteral(_))
        }
        Expr::Tuple(t) => t.elts.iter().all(is_hashable_literal),
        _ => false,
    }
}

/// Whether executing a statement inside a test can neither run user code nor raise.
/// `bound` is as for [`expr_is_inert`]; `builtin(name)` says whether a name is the builtin one (not
/// shadowed by the test file).
pub fn stmt_is_inert(
    stmt: &Stmt,
    bound: &dyn Fn(&str) -> bool,
    builtin: &dyn Fn(&str) -> bool,
) -> bool {
    match stmt {
        Stmt::Pass(_) => true,
        Stmt::Expr(e) => expr_is_inert(&e.value, bound),
        Stmt::Assign(a) => {
            a.targets
                .iter()
                .all(|t| matches!(t, Expr::Name(n) if !bound(n.id.as_str())))
                && expr_is_inert(&a.value, bound)
        }
        // A local variable's annotation is not evaluated.
        Stmt::AnnAssign(a) => {
            matches!(a.target.as_ref(), Expr::Name(n) if a.value.is_none() || !bound(n.id.as_str()))
                && a.value.as_deref().is_none_or(|v| expr_is_inert(v, bound))
        }
        Stmt::Import(i) => i.names.iter().all(|n| is_stdlib(n.name.as_str())),
        Stmt::ImportFrom(i) => {
            i.level == 0 && i.module.as_ref().is_some_and(|m| is_stdlib(m.as_str()))
        }
        // `del x` may drop the last reference: a finalizer or a weak reference's callback runs.
        Stmt::Delete(_) => false,
        Stmt::FunctionDef(f) => function_def_is_inert(f, bound, builtin),
        Stmt::ClassDef(c) => {
            c.decorator_list.is_empty()
                && c.type_params.is_none()
                && c.arguments.as_ref().is_none_or(|args| {
                    args.keywords.is_empty()
                        && args.args.iter().all(|b| {
                            matches!(b, Expr::Name(n)
                                if is_builtin_base(n.id.as_str()) && builtin(n.id.as_str()))
                        })
                })
                && c.body.iter().all(|s| match s {
                    Stmt::FunctionDef(f) => function_def_is_inert(f, bound, builtin),
                    Stmt::Pass(_) => true,
                    Stmt::Expr(e) => expr_is_inert(&e.value, bound),
                    Stmt::Assign(a) => {
                        a.targets.iter().all(|t| matches!(t, Expr::Name(_)))
                            && expr_is_inert(&a.value, bound)
                    }
                    _ => false,
                })
        }
        _ => false,
    }
}

/// A `def` runs its decorators, defaults and (before Python 3.14) annotations.
fn function_def_is_inert(
    f: &ast::StmtFunctionDef,
    bound: &dyn Fn(&str) -> bool,
    builtin: &dyn Fn(&str) -> bool,
) -> bool {
    let annotation_ok = |a: Option<&Expr>| match a {
        None => true,
        Some(Expr::StringLiteral(_)) => true,
        Some(Expr::Name(n)) => bound(n.id.as_str()) || builtin(n.id.as_str()),
        Some(_) => false,
    };
    f.decorator_list.is_empty()
        && f.type_params.is_none()
        && annotation_ok(f.returns.as_deref())
        && f.parameters.iter().all(|p| {
            annotation_ok(p.annotation()) && p.default().is_none_or(|d| expr_is_inert(d, bound))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inert(src: &str) -> bool {
        let parsed = ruff_python_parser::parse_expression(src).unwrap();
        expr_is_inert(parsed.expr(), &|n| n == "x")
    }

    fn stmt_inert(src: &str) -> bool {
        let parsed = ruff_python_parser::parse_module(src).unwrap();
        let stmt = &parsed.suite()[0];
        stmt_is_inert(stmt, &|n| n == "x", &|_| true)
    }

    #[test]
    fn literals_and_displays_are_inert() {
        assert!(inert("1"));
        assert!(inert("-1.5"));
        assert!(inert("'a'"));
        assert!(inert("[1, (2, 'b'), x]"));
        assert!(inert("{'a': [x]}"));
        assert!(inert("{1, (2, 3)}"));
        assert!(inert("lambda n: n.pop()"));
    }

    #[test]
    fn anything_that_can_run_code_or_raise_is_not() {
        for src in [
            "f()",
            "x.attr",
            "x[0]",
            "x + 1",
            "x == 1",
            "not x",
            "y",
            "{[1]: 2}",
            "{x}",
            "[*x]",
            "f'{x}'",
            "lambda n=f(): n",
            "len(x)",
            "(a := 1)",
        ] {
            assert!(!inert(src), "{src} should not be inert");
        }
    }

    #[test]
    fn statements() {
        assert!(stmt_inert("y = [1, x]"));
        assert!(stmt_inert("import math"));
        assert!(stmt_inert("from collections import deque"));
        assert!(stmt_inert("def helper(n, m=1):\n    return sol.f(n)"));
        assert!(stmt_inert(
            "class Box:\n    size = 3\n    def get(self):\n        return 1"
        ));
        assert!(!stmt_inert("del x"));
        assert!(!stmt_inert("x = None"));
        assert!(!stmt_inert("import solution"));
        assert!(!stmt_inert("y = f()"));
        assert!(!stmt_inert("@cache\ndef helper(n):\n    return n"));
        assert!(!stmt_inert("def helper(n=make()):\n    return n"));
        assert!(!stmt_inert("class Box(Base):\n    pass"));
        assert!(!stmt_inert("class Box:\n    size = compute()"));
        assert!(!stmt_inert("x.y = 1"));
        assert!(!stmt_inert("for i in range(3):\n    pass"));
        assert!(!stmt_inert("del y"));
        assert!(!stmt_inert("global y"));
    }
}
