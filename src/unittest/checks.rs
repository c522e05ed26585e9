//! unittest's check calls (`self.assertX(…)`) in a test's statements.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use super::is_check_method;
use crate::walk::{for_each_stmt, Scope};

/// `self.assertX(…)` (the callee of a check) for the instance named `this`: the method's name.
pub fn check_call<'e>(expr: &'e Expr, this: &str) -> Option<&'e ast::ExprCall> {
    let Expr::Call(call) = expr else { return None };
    match call.func.as_ref() {
        Expr::Attribute(a)
            if is_check_method(a.attr.as_str())
                && matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == this) =>
        {
            Some(call)
        }
        _ => None,
    }
}

/// unittest's methods that return a context manager when called without their callable (and make
/// no check then), with how many positional arguments the callable form takes at least.
const CONTEXT_FORMS: &[(&str, usize)] = &[
    ("assertRaises", 2),
    ("assertRaisesRegex", 3),
    ("assertWarns", 2),
    ("assertWarnsRegex", 3),
    ("assertLogs", usize::MAX),
    ("assertNoLogs", usize::MAX),
];

/// `self.assertX(…)` as a statement that makes a check: not a context-manager form called
/// without its callable (`self.assertRaises(E)` alone makes no check).
pub fn statement_check<'e>(expr: &'e Expr, this: &str) -> Option<&'e ast::ExprCall> {
    let call = check_call(expr, this)?;
    let name = method_name(call);
    let args = &call.arguments.args;
    match CONTEXT_FORMS.iter().find(|(m, _)| *m == name) {
        Some((_, n)) if args.iter().any(Expr::is_starred_expr) || args.len() < *n => None,
        _ => Some(call),
    }
}

/// The checks nested in a statement (unittest's check calls, as statements or `with` items), for a
/// test whose instance is `this`: each range, and the method's name.
pub fn nested_checks(stmt: &Stmt, this: &str) -> Vec<(TextRange, String)> {
    let mut out = Vec::new();
    for_each_stmt(stmt, Scope::Own, |stmt| match stmt {
        Stmt::Expr(e) => {
            if let Some(call) = statement_check(&e.value, this) {
                out.push((e.range, method_name(call)));
            }
        }
        Stmt::With(w) => {
            for item in &w.items {
                if let Some(call) = check_call(&item.context_expr, this) {
                    out.push((item.context_expr.range(), method_name(call)));
                }
            }
        }
        _ => {}
    });
    out
}

fn method_name(call: &ast::ExprCall) -> String {
    match call.func.as_ref() {
        Expr::Attribute(a) => a.attr.to_string(),
        _ => String::new(),
    }
}
