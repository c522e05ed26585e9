//! The readable view of a folded assertion: the same expression, one step per line and the final
//! check last, for people (the CLI's report and the page). The one-line `expr` stays what a bench
//! loop evaluates; this view is also valid Python and evaluates exactly as `expr` does, because it
//! only breaks lines inside the brackets the fold already has (Python joins them back) and never
//! inside a step's own text.
//!
//! A fold is `(lambda: BODY)()`, where `BODY` is a step sequence `(s1, s2, …, check)[-1]`, or earlier
//! asserts joined to it by `and` (pytest stops at the first that fails). Anything else (an inlined
//! assertion, a plain expression) has no steps to show and gets no readable view.

use ruff_python_ast::{Expr, ExprBoolOp, ExprCall, ExprSubscript, ExprUnaryOp, UnaryOp};
use ruff_python_parser::parse_expression;
use ruff_text_size::Ranged;

const INDENT: &str = "    ";

/// The readable, multi-line view of a folded assertion, or `None` when `expr` is not a fold of
/// several steps (nothing to unfold).
pub fn readable(expr: &str) -> Option<String> {
    let parsed = parse_expression(expr).ok()?;
    let (params, body) = fold_body(parsed.expr())?;
    // The imported names a fold binds first (`lambda add=add, sub=sub:`) stay on its first line.
    let mut out = match params {
        Some(p) => format!("(lambda {}:\n", &expr[p.range()]),
        None => String::from("(lambda:\n"),
    };
    write_body(expr, body, 1, &mut out);
    out.push_str(")()");
    Some(out)
}

/// The parameters (name=name defaults only) and the body of `(lambda …: BODY)()` when the body
/// holds at least one step sequence.
fn fold_body(expr: &Expr) -> Option<(Option<&ruff_python_ast::Parameters>, &Expr)> {
    let Expr::Call(ExprCall {
        func, arguments, ..
    }) = expr
    else {
        return None;
    };
    if !arguments.is_empty() {
        return None;
    }
    let Expr::Lambda(lambda) = func.as_ref() else {
        return None;
    };
    let params = lambda.parameters.as_deref();
    if let Some(p) = params {
        let plain = p.posonlyargs.is_empty()
            && p.vararg.is_none()
            && p.kwonlyargs.is_empty()
            && p.kwarg.is_none()
            && p.args.iter().all(|a| {
                matches!(a.default.as_deref(), Some(Expr::Name(n)) if n.id == a.parameter.name.id)
            });
        if !plain {
            return None;
        }
    }
    let body = lambda.body.as_ref();
    let has_steps = match body {
        Expr::BoolOp(ExprBoolOp { values, .. }) => values.iter().any(|v| steps(v).is_some()),
        other => steps(other).is_some(),
    };
    has_steps.then_some((params, body))
}

/// The steps of `(s1, s2, …, check)[-1]`.
fn steps(expr: &Expr) -> Option<&[Expr]> {
    let Expr::Subscript(ExprSubscript { value, slice, .. }) = expr else {
        return None;
    };
    let Expr::Tuple(tuple) = value.as_ref() else {
        return None;
    };
    if !tuple.parenthesized || tuple.elts.len() < 2 || !is_minus_one(slice) {
        return None;
    }
    Some(&tuple.elts)
}

fn is_minus_one(expr: &Expr) -> bool {
    match expr {
        Expr::UnaryOp(ExprUnaryOp {
            op: UnaryOp::USub,
            operand,
            ..
        }) => {
            matches!(operand.as_ref(), Expr::NumberLiteral(n) if n.value.as_int().is_some_and(|i| i.as_u8() == Some(1)))
        }
        _ => false,
    }
}

fn write_body(src: &str, body: &Expr, depth: usize, out: &mut String) {
    match body {
        Expr::BoolOp(ExprBoolOp { values, .. }) => {
            for (i, value) in values.iter().enumerate() {
                let prefix = if i == 0 { "" } else { "and " };
                write_part(src, value, prefix, depth, out);
            }
        }
        other => write_part(src, other, "", depth, out),
    }
}

/// One operand of the body: a step sequence one step per line, or an earlier check on its line.
fn write_part(src: &str, part: &Expr, prefix: &str, depth: usize, out: &mut String) {
    let pad = INDENT.repeat(depth);
    match steps(part) {
        Some(steps) => {
            out.push_str(&format!("{pad}{prefix}(\n"));
            let inner = INDENT.repeat(depth + 1);
            for step in steps {
                out.push_str(&format!("{inner}{},\n", &src[step.range()]));
            }
            out.push_str(&format!("{pad})[-1]\n"));
        }
        // An operand that binds looser than `and` had parentheses in the fold (a node's range
        // leaves them out): put them back, or the view would be another expression.
        None if matches!(
            part,
            Expr::BoolOp(_) | Expr::If(_) | Expr::Lambda(_) | Expr::Named(_)
        ) =>
        {
            out.push_str(&format!("{pad}{prefix}({})\n", &src[part.range()]))
        }
        None => out.push_str(&format!("{pad}{prefix}{}\n", &src[part.range()])),
    }
}

#[cfg(test)]
mod tests {
    use super::readable;

    fn same_ast(a: &str, b: &str) -> bool {
        use ruff_python_ast::comparable::ComparableExpr;
        let a = ruff_python_parser::parse_expression(a).unwrap();
        let b = ruff_python_parser::parse_expression(b).unwrap();
        ComparableExpr::from(a.expr()) == ComparableExpr::from(b.expr())
    }

    #[test]
    fn one_step_per_line_and_the_check_last() {
        let expr = r#"(lambda: (r := Report("Q1"), r.add("sales", 10), r.total() == 10)[-1])()"#;
        let view = readable(expr).unwrap();
        assert_eq!(
            view,
            "(lambda:\n    (\n        r := Report(\"Q1\"),\n        r.add(\"sales\", 10),\n        r.total() == 10,\n    )[-1]\n)()"
        );
        assert!(same_ast(expr, &view));
    }

    #[test]
    fn earlier_asserts_stay_joined_by_and() {
        let expr = r#"(lambda: lookup({}, "k") is MISSING and (big := 10 ** 20, passthrough(big) is big)[-1])()"#;
        let view = readable(expr).unwrap();
        assert!(view.contains("\n    lookup({}, \"k\") is MISSING\n    and (\n"));
        assert!(view.ends_with("        passthrough(big) is big,\n    )[-1]\n)()"));
        assert!(same_ast(expr, &view));
    }

    #[test]
    fn imported_names_bound_first_stay_on_the_first_line() {
        let expr = "(lambda reset=reset, cache=cache: (reset(), cache == {})[-1])()";
        let view = readable(expr).unwrap();
        assert!(view.starts_with("(lambda reset=reset, cache=cache:\n    (\n        reset(),\n"));
        assert!(same_ast(expr, &view));
    }

    #[test]
    fn text_inside_a_step_is_never_changed() {
        let expr = "(lambda: (s := \"a,\\n b\", f(s, (1, 2)[-1]) == [\n1])[-1])()";
        let view = readable(expr).unwrap();
        assert!(view.contains("s := \"a,\\n b\",\n"));
        assert!(view.contains("f(s, (1, 2)[-1]) == [\n1],\n"));
        assert!(same_ast(expr, &view));
    }

    #[test]
    fn an_operand_looser_than_and_keeps_its_parentheses() {
        let expr = "(lambda: (x := f(), x == 1 and y)[-1] and (x == 1 and y))()";
        let view = readable(expr).unwrap();
        assert!(view.contains("    and (x == 1 and y)\n"), "{view}");
        assert!(same_ast(expr, &view));
    }

    #[test]
    fn no_view_for_what_is_not_a_fold() {
        assert_eq!(readable("add(1, 2) == 3"), None);
        assert_eq!(readable("(lambda: add(1, 2) == 3)()"), None);
        assert_eq!(readable("(lambda x: (x, x)[-1])(1)"), None);
        assert_eq!(readable("(lambda x=1: (x, x)[-1])()"), None);
        assert_eq!(readable("(lambda: (a, b)[0])()"), None);
        assert_eq!(readable("not valid ("), None);
    }
}
