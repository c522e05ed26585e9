//! Walks of the syntax tree that answer one question: every expression or statement under a root,
//! whether any satisfies a predicate, the first that does. Each visits in the order of ruff's
//! [`Visitor`] (source order, a node before what it holds), stops at the first match where it looks
//! for one, and goes as deep as its [`Scope`] says.
//!
//! Written here rather than with `ruff_python_ast::helpers::any_over_expr` / `any_over_body`:
//! those skip a lambda's parameter defaults (which the `Visitor` visits), visit in another order
//! (a comprehension's element before its generators), cannot stop at a nested `def`, `class` or
//! `lambda`, and answer "whether", not "which": the first match is not handed back.

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt};

/// How deep a walk goes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scope {
    /// Everything: the bodies of nested functions, classes and lambdas included.
    All,
    /// The walked code's own: a nested `def`, `class` or `lambda` is met (the callback sees the
    /// statement or the lambda) but nothing of it is entered, not its decorators, defaults or body.
    /// Comprehensions are entered.
    Own,
}

/// Where a walk starts: a body (`&f.body[..]`), one statement or one expression (the root is
/// visited too).
pub trait Root<'a> {
    fn accept<V: Visitor<'a>>(self, visitor: &mut V);
}

impl<'a> Root<'a> for &'a [Stmt] {
    fn accept<V: Visitor<'a>>(self, visitor: &mut V) {
        visitor::walk_body(visitor, self);
    }
}

impl<'a> Root<'a> for &'a Stmt {
    fn accept<V: Visitor<'a>>(self, visitor: &mut V) {
        visitor.visit_stmt(self);
    }
}

impl<'a> Root<'a> for &'a Expr {
    fn accept<V: Visitor<'a>>(self, visitor: &mut V) {
        visitor.visit_expr(self);
    }
}

/// Calls `f` on every expression under `root`.
pub fn for_each_expr<'a>(root: impl Root<'a>, scope: Scope, mut f: impl FnMut(&'a Expr)) {
    find_expr(root, scope, |e| {
        f(e);
        None::<()>
    });
}

/// Whether any expression under `root` satisfies `pred` (the walk stops at the first that does).
pub fn any_expr<'a>(
    root: impl Root<'a>,
    scope: Scope,
    mut pred: impl FnMut(&'a Expr) -> bool,
) -> bool {
    find_expr(root, scope, |e| pred(e).then_some(())).is_some()
}

/// The first answer `f` gives on the expressions under `root`.
pub fn find_expr<'a, T>(
    root: impl Root<'a>,
    scope: Scope,
    mut f: impl FnMut(&'a Expr) -> Option<T>,
) -> Option<T> {
    let mut found = None;
    let mut on_expr = |e: &'a Expr| {
        found = f(e);
        found.is_some()
    };
    let mut walk = Walk {
        scope,
        on_stmt: &mut |_: &'a Stmt| false,
        on_expr: Some(&mut on_expr),
        done: false,
    };
    root.accept(&mut walk);
    found
}

/// Calls `f` on every statement under `root` (its expressions are not walked).
pub fn for_each_stmt<'a>(root: impl Root<'a>, scope: Scope, mut f: impl FnMut(&'a Stmt)) {
    find_stmt(root, scope, |s| {
        f(s);
        None::<()>
    });
}

/// Whether any statement under `root` satisfies `pred` (the walk stops at the first that does).
pub fn any_stmt<'a>(
    root: impl Root<'a>,
    scope: Scope,
    mut pred: impl FnMut(&'a Stmt) -> bool,
) -> bool {
    find_stmt(root, scope, |s| pred(s).then_some(())).is_some()
}

/// The first answer `f` gives on the statements under `root`.
pub fn find_stmt<'a, T>(
    root: impl Root<'a>,
    scope: Scope,
    mut f: impl FnMut(&'a Stmt) -> Option<T>,
) -> Option<T> {
    let mut found = None;
    let mut on_stmt = |s: &'a Stmt| {
        found = f(s);
        found.is_some()
    };
    let mut walk = Walk {
        scope,
        on_stmt: &mut on_stmt,
        on_expr: None,
        done: false,
    };
    root.accept(&mut walk);
    found
}

/// The one visitor behind the walks: `on_stmt` sees every statement, `on_expr` (when there is
/// one) every expression; the first `true` either gives ends the walk. The callbacks are `dyn`:
/// one visitor for every walk (a walker generic over its closure was a whole copy of ruff's walk
/// per call site, 58 KB of the page's wasm), for a dynamic call per node.
struct Walk<'w, 'a> {
    scope: Scope,
    on_stmt: &'w mut dyn FnMut(&'a Stmt) -> bool,
    /// `None`: a walk of statements only (no statement is inside an expression).
    on_expr: Option<&'w mut dyn FnMut(&'a Expr) -> bool>,
    done: bool,
}

impl<'a> Visitor<'a> for Walk<'_, 'a> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if self.done {
            return;
        }
        self.done = (self.on_stmt)(stmt);
        let nested = matches!(stmt, Stmt::FunctionDef(_) | Stmt::ClassDef(_));
        if self.done || (nested && self.scope == Scope::Own) {
            return;
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if self.done {
            return;
        }
        let Some(on_expr) = &mut self.on_expr else {
            return;
        };
        self.done = on_expr(expr);
        let nested = matches!(expr, Expr::Lambda(_));
        if self.done || (nested && self.scope == Scope::Own) {
            return;
        }
        visitor::walk_expr(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ruff_python_ast::{self as ast, ModModule};

    fn parse(source: &str) -> ModModule {
        ruff_python_parser::parse_module(source)
            .unwrap()
            .into_syntax()
    }

    fn names<'a>(root: impl Root<'a>, scope: Scope) -> Vec<&'a str> {
        let mut out = Vec::new();
        for_each_expr(root, scope, |e| {
            if let Expr::Name(n) = e {
                out.push(n.id.as_str());
            }
        });
        out
    }

    #[test]
    fn every_expression_in_the_visitors_order() {
        let m = parse("@d\ndef f(a=x):\n    return [e for g in h if i]\ny = lambda k=l: m\n");
        assert_eq!(
            names(&m.body[..], Scope::All),
            ["d", "x", "h", "g", "i", "e", "l", "m", "y"]
        );
    }

    #[test]
    fn own_scope_meets_nested_definitions_without_entering_them() {
        let m = parse(
            "a\n@d\ndef f(b=c):\n    e\nclass C(D):\n    g\nh = lambda i=j: k\n[l for n in o]\n",
        );
        assert_eq!(names(&m.body[..], Scope::Own), ["a", "h", "o", "n", "l"]);
        let mut defs = Vec::new();
        for_each_stmt(&m.body[..], Scope::Own, |s| match s {
            Stmt::FunctionDef(f) => defs.push(f.name.as_str()),
            Stmt::ClassDef(c) => defs.push(c.name.as_str()),
            _ => {}
        });
        assert_eq!(defs, ["f", "C"]);
    }

    #[test]
    fn the_first_match_ends_the_walk() {
        let m = parse("if a:\n    assert b\n    assert c\nassert d\n");
        let mut seen = 0;
        let first = find_stmt(&m.body[..], Scope::All, |s| {
            seen += 1;
            match s {
                Stmt::Assert(a) => Some(a),
                _ => None,
            }
        });
        assert!(
            matches!(first.map(|a| a.test.as_ref()), Some(Expr::Name(n)) if n.id.as_str() == "b")
        );
        assert_eq!(seen, 2);
        assert!(any_expr(
            &m.body[..],
            Scope::All,
            |e| matches!(e, Expr::Name(n) if n.id.as_str() == "d")
        ));
        assert!(!any_stmt(&m.body[..], Scope::All, |s| matches!(
            s,
            Stmt::Return(ast::StmtReturn { .. })
        )));
    }
}
