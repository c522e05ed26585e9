//! The readable view of a folded assertion: the same expression, one step per line and the final
//! check last, for people (the CLI's report and the page). The one-line `expr` stays what a bench
//! loop evaluates; this view is also valid Python and evaluates exactly as `expr` does, because it
//! only breaks lines inside the brackets the fold already has (Python joins them back) and never
//! inside a step's own text.
//!
//! A fold is `(lambda: BODY)()`, where `BODY` is a chain `[s1] and [s2] and … and check`: each step
//! in a one-element list (always true, and let go once the step is done), earlier asserts joined by
//! `and` too (pytest stops at the first that fails). A step sequence `(s1, s2, …, check)[-1]` (inside a
//! loop) is unfolded one step per line as well. A `for` loop the fold
//! replays (`[(t := _bx_t, …) and None for _bx_t in it]`, or `not any(… for _bx_t in it)` when its
//! body asserts) is unfolded the same way: its body one step per line, its `for` clause last.
//! Anything else (an inlined assertion, a plain expression) has no steps to show and gets no
//! readable view.

use ruff_python_ast::{
    BoolOp, Expr, ExprBoolOp, ExprCall, ExprGenerator, ExprSubscript, ExprUnaryOp, UnaryOp,
};
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
    let unfolds = |v: &Expr| step(v).is_some() || steps(v).is_some() || is_loop(v);
    let has_steps = match body {
        Expr::BoolOp(ExprBoolOp {
            op: BoolOp::And,
            values,
            ..
        }) => values.iter().any(unfolds),
        other => unfolds(other),
    };
    has_steps.then_some((params, body))
}

/// The step of `[s]`, a one-element list the fold's chain runs a step in.
fn step(expr: &Expr) -> Option<&Expr> {
    match expr {
        Expr::List(l) if l.elts.len() == 1 => l.elts.first(),
        _ => None,
    }
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
    if let Some(s) = step(part) {
        out.push_str(&format!("{pad}{prefix}[{}]\n", step_text(src, s, depth)));
        return;
    }
    match steps(part) {
        Some(steps) => {
            out.push_str(&format!("{pad}{prefix}(\n"));
            let inner = INDENT.repeat(depth + 1);
            for step in steps {
                out.push_str(&format!("{inner}{},\n", step_text(src, step, depth + 1)));
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
        None => out.push_str(&format!("{pad}{prefix}{}\n", step_text(src, part, depth))),
    }
}

/// `any(… for …)` with a generator as its one argument: a loop whose body asserts.
fn any_generator(expr: &Expr) -> Option<&ExprGenerator> {
    let Expr::Call(ExprCall {
        func, arguments, ..
    }) = expr
    else {
        return None;
    };
    // `__import__("builtins").any(…)`, as the fold spells it (a bare `any` may be rebound).
    let builtins_any = match func.as_ref() {
        Expr::Attribute(a) if a.attr.as_str() == "any" => matches!(
            a.value.as_ref(),
            Expr::Call(c) if matches!(c.func.as_ref(), Expr::Name(n) if n.id == "__import__")
                && matches!(&c.arguments.args[..], [Expr::StringLiteral(s)] if s.value.to_str() == "builtins")
        ),
        _ => false,
    };
    match &arguments.args[..] {
        [Expr::Generator(g)] if builtins_any && arguments.keywords.is_empty() => Some(g),
        _ => None,
    }
}

/// The steps of a loop replayed for its effect: `[(s1, s2, …) and None for …]`.
fn effect_loop(expr: &Expr) -> Option<(&[Expr], &ruff_python_ast::ExprListComp)> {
    let Expr::ListComp(comp) = expr else {
        return None;
    };
    let Expr::BoolOp(ExprBoolOp {
        op: BoolOp::And,
        values,
        ..
    }) = comp.elt.as_ref()
    else {
        return None;
    };
    match &values[..] {
        [Expr::Tuple(t), Expr::NoneLiteral(_)] if t.parenthesized => Some((&t.elts, comp)),
        _ => None,
    }
}

/// Whether `expr` is a loop the fold replays.
fn is_loop(expr: &Expr) -> bool {
    match expr {
        Expr::UnaryOp(ExprUnaryOp {
            op: UnaryOp::Not,
            operand,
            ..
        }) => any_generator(operand).is_some(),
        other => any_generator(other).is_some() || effect_loop(other).is_some(),
    }
}

/// The `for … in …` clauses of a comprehension, as written.
fn clauses<'s>(src: &'s str, generators: &[ruff_python_ast::Comprehension]) -> &'s str {
    match (generators.first(), generators.last()) {
        (Some(first), Some(last)) => {
            &src[first.range().start().to_usize()..last.range().end().to_usize()]
        }
        _ => "",
    }
}

/// One step as text, starting on a line indented `depth` times: a loop unfolded over lines (only
/// inside its own brackets), anything else exactly as written.
fn step_text(src: &str, step: &Expr, depth: usize) -> String {
    let pad = INDENT.repeat(depth);
    let inner = INDENT.repeat(depth + 1);
    if let Expr::UnaryOp(ExprUnaryOp {
        op: UnaryOp::Not,
        operand,
        ..
    }) = step
    {
        if any_generator(operand).is_some() {
            return format!("not {}", step_text(src, operand, depth));
        }
    }
    if let Some(g) = any_generator(step) {
        let parts: Vec<&Expr> = match g.elt.as_ref() {
            Expr::BoolOp(ExprBoolOp {
                op: BoolOp::Or,
                values,
                ..
            }) => values.iter().collect(),
            other => vec![other],
        };
        let mut out = String::from("__import__(\"builtins\").any(\n");
        for (i, part) in parts.iter().enumerate() {
            let prefix = if i == 0 { "" } else { "or " };
            out.push_str(&format!(
                "{inner}{prefix}{}\n",
                sequence_text(src, part, depth + 1)
            ));
        }
        out.push_str(&format!("{inner}{}\n{pad})", clauses(src, &g.generators)));
        return out;
    }
    if let Some((steps, comp)) = effect_loop(step) {
        let deeper = INDENT.repeat(depth + 2);
        let mut out = format!("[\n{inner}(\n");
        for s in steps {
            out.push_str(&format!("{deeper}{},\n", step_text(src, s, depth + 2)));
        }
        out.push_str(&format!(
            "{inner}) and None\n{inner}{}\n{pad}]",
            clauses(src, &comp.generators)
        ));
        return out;
    }
    src[step.range()].to_string()
}

/// A step sequence `(s1, …, check)[-1]` inside a loop, one step per line; anything else as a step.
fn sequence_text(src: &str, part: &Expr, depth: usize) -> String {
    match steps(part) {
        Some(steps) => {
            let pad = INDENT.repeat(depth);
            let inner = INDENT.repeat(depth + 1);
            let mut out = String::from("(\n");
            for s in steps {
                out.push_str(&format!("{inner}{},\n", step_text(src, s, depth + 1)));
            }
            out.push_str(&format!("{pad})[-1]"));
            out
        }
        None => step_text(src, part, depth),
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
        let expr =
            r#"(lambda: [r := Report("Q1")] and [r.add("sales", 10)] and r.total() == 10)()"#;
        let view = readable(expr).unwrap();
        assert_eq!(
            view,
            "(lambda:\n    [r := Report(\"Q1\")]\n    and [r.add(\"sales\", 10)]\n    and r.total() == 10\n)()"
        );
        assert!(same_ast(expr, &view));
        // The step sequence of a loop's body (and of earlier versions) unfolds too.
        let tuple = r#"(lambda: (r := Report("Q1"), r.add("sales", 10), r.total() == 10)[-1])()"#;
        assert!(same_ast(tuple, &readable(tuple).unwrap()));
    }

    #[test]
    fn earlier_asserts_stay_joined_by_and() {
        let expr = r#"(lambda: lookup({}, "k") is MISSING and [big := 10 ** 20] and passthrough(big) is big)()"#;
        let view = readable(expr).unwrap();
        assert!(
            view.contains("\n    lookup({}, \"k\") is MISSING\n    and [big := 10 ** 20]\n"),
            "{view}"
        );
        assert!(
            view.ends_with("    and passthrough(big) is big\n)()"),
            "{view}"
        );
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
        let expr = "(lambda: [x := f()] and (x == 1 and y) and (x == 1 and y))()";
        let view = readable(expr).unwrap();
        assert!(view.contains("    and (x == 1 and y)\n"), "{view}");
        assert!(same_ast(expr, &view));
    }

    #[test]
    fn a_loop_shows_its_body_one_step_per_line_and_its_for_clause_last() {
        let expr = r#"(lambda: [t := T()] and [[(w := _bx_w, t.add(w)) and None for _bx_w in ["a", "b"]]] and not __import__("builtins").any((k := _bx_k, not (t.n == k))[-1] or not (k) for _bx_k in range(1, 3)) and t.n == 2)()"#;
        let view = readable(expr).unwrap();
        assert!(view.contains("    and [[\n        (\n            w := _bx_w,\n            t.add(w),\n        ) and None\n        for _bx_w in [\"a\", \"b\"]\n    ]]\n"), "{view}");
        assert!(view.contains("    and not __import__(\"builtins\").any(\n        (\n            k := _bx_k,\n            not (t.n == k),\n        )[-1]\n        or not (k)\n        for _bx_k in range(1, 3)\n    )\n"), "{view}");
        assert!(same_ast(expr, &view));
        // A fold that is only the loop, and a one-step body (a one-element tuple stays one).
        let only = r#"(lambda f=f: not __import__("builtins").any((x := _bx_x, not (f(x)))[-1] for _bx_x in (1, 2)))()"#;
        let view = readable(only).unwrap();
        assert!(
            view.starts_with("(lambda f=f:\n    not __import__(\"builtins\").any(\n"),
            "{view}"
        );
        assert!(same_ast(only, &view));
        let one = "(lambda: (s := [], [(x := _bx_x,) and None for _bx_x in s], x)[-1])()";
        assert!(same_ast(one, &readable(one).unwrap()));
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
