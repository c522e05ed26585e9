//! A helper written as a lambda binds its locals with assignment expressions, `(y := g(x), f(y))[-1]`,
//! which CPython refuses anywhere in a comprehension's iterable, even inside a lambda there
//! (`[c.value for c in (lambda x: (comp := Make(x), comp.items())[-1])(cli)]`). The same steps can
//! be written as nested lambdas, each step's value the argument of the lambda that binds it:
//! `(lambda comp: comp.items())(Make(x))`. That is exact when no step reads a name that it or a later
//! step binds (there the lambda form raises `UnboundLocalError`, where a nested lambda would read an
//! outer name of the same spelling), so only such tuples are rewritten, and only where the
//! expression would not compile otherwise.

use crate::walk::visitor::{walk_expr, Visitor};
use ruff_python_ast::{Expr, Number, UnaryOp};
use ruff_python_parser::{parse, Mode, ParseOptions};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashSet as HashSet;

use crate::sort::SharedSort as _;

/// `expr` with the helper steps inside comprehensions' iterables written as nested lambdas, when
/// that makes it compile; `None` when nothing could be rewritten or it still does not compile.
pub fn without_walrus_in_iterables(expr: &str) -> Option<String> {
    let mut text = expr.to_string();
    // Each round rewrites the innermost tuples; nested helpers need a round per level.
    for _ in 0..16 {
        let edits = rewrites(&text)?;
        if edits.is_empty() {
            return None;
        }
        let mut next = text.clone();
        for (range, replacement) in edits.into_iter().rev() {
            next.replace_range(
                range.start().to_usize()..range.end().to_usize(),
                &replacement,
            );
        }
        text = next;
        if crate::portable::compile_error(&text).is_none() {
            return Some(text);
        }
    }
    None
}

/// The innermost rewritable step tuples inside comprehensions' iterables, in source order.
fn rewrites(text: &str) -> Option<Vec<(TextRange, String)>> {
    let parsed = parse(text, ParseOptions::from(Mode::Expression)).ok()?;
    let body = &parsed.syntax().as_expression()?.body;
    let mut finder = Finder {
        text,
        in_iterable: 0,
        lambda_params: Vec::new(),
        found: Vec::new(),
    };
    finder.visit_expr(body);
    // Innermost only: a candidate that holds another is left for a later round.
    let ranges: Vec<TextRange> = finder.found.iter().map(|(r, _)| *r).collect();
    let mut edits: Vec<(TextRange, String)> = finder
        .found
        .into_iter()
        .filter(|(r, _)| !ranges.iter().any(|o| o != r && r.contains_range(*o)))
        .collect();
    edits.sort_shared_by_key(|(r, _)| r.start());
    Some(edits)
}

struct Finder<'t> {
    text: &'t str,
    /// How many comprehension iterables the walk is inside.
    in_iterable: u32,
    /// The parameters of each lambda the walk is inside, innermost last.
    lambda_params: Vec<HashSet<String>>,
    found: Vec<(TextRange, String)>,
}

impl Finder<'_> {
    fn generators(&mut self, generators: &[ruff_python_ast::Comprehension], parts: &[&Expr]) {
        for g in generators {
            self.in_iterable += 1;
            self.visit_expr(&g.iter);
            self.in_iterable -= 1;
            self.visit_expr(&g.target);
            for c in &g.ifs {
                self.visit_expr(c);
            }
        }
        for p in parts {
            self.visit_expr(p);
        }
    }

    /// `(step, …, value)[-1]` as the body (or part) of a lambda: its nested-lambda spelling, when exact.
    fn steps(&self, expr: &Expr) -> Option<String> {
        let Expr::Subscript(s) = expr else {
            return None;
        };
        let minus_one = matches!(s.slice.as_ref(), Expr::UnaryOp(u)
            if u.op == UnaryOp::USub
                && matches!(u.operand.as_ref(), Expr::NumberLiteral(n) if matches!(&n.value, Number::Int(i) if i.as_u8() == Some(1))));
        let Expr::Tuple(t) = s.value.as_ref() else {
            return None;
        };
        let (value, steps) = t.elts.split_last()?;
        if !minus_one || steps.is_empty() || !steps.iter().any(|e| matches!(e, Expr::Named(_))) {
            return None;
        }
        let params = self.lambda_params.last()?;
        let targets: Vec<Option<String>> = steps
            .iter()
            .map(|e| match e {
                Expr::Named(n) => match n.target.as_ref() {
                    Expr::Name(name) => Some(Some(name.id.to_string())),
                    _ => None,
                },
                _ => Some(None),
            })
            .collect::<Option<_>>()?;
        for (i, step) in steps.iter().enumerate() {
            let read = match step {
                Expr::Named(n) => names_read(&n.value),
                other => names_read(other),
            };
            let bound_before: HashSet<&str> =
                targets[..i].iter().flatten().map(String::as_str).collect();
            let bound_here_or_later = targets[i..].iter().flatten().map(String::as_str);
            for later in bound_here_or_later {
                if read.contains(later) && !bound_before.contains(later) && !params.contains(later)
                {
                    return None;
                }
            }
        }
        let src = |e: &Expr| &self.text[e.range().start().to_usize()..e.range().end().to_usize()];
        let mut out = src(value).to_string();
        for (step, target) in steps.iter().zip(&targets).rev() {
            let argument = match step {
                Expr::Named(n) => src(&n.value),
                other => src(other),
            };
            let name = target.as_deref().unwrap_or("_bx_step");
            out = format!("(lambda {name}: {out})({argument})");
        }
        Some(out)
    }
}

impl Visitor<'_> for Finder<'_> {
    fn visit_expr(&mut self, expr: &Expr) {
        match expr {
            Expr::ListComp(c) => return self.generators(&c.generators, &[&c.elt]),
            Expr::SetComp(c) => return self.generators(&c.generators, &[&c.elt]),
            Expr::Generator(c) => return self.generators(&c.generators, &[&c.elt]),
            Expr::DictComp(c) => {
                let mut parts: Vec<&Expr> = vec![&c.value];
                parts.extend(c.key.as_deref());
                return self.generators(&c.generators, &parts);
            }
            Expr::Lambda(l) => {
                let params: HashSet<String> = l
                    .parameters
                    .iter()
                    .flat_map(|p| p.iter())
                    .map(|p| p.name().to_string())
                    .collect();
                self.lambda_params.push(params);
                walk_expr(self, expr);
                self.lambda_params.pop();
                return;
            }
            _ => {}
        }
        if self.in_iterable > 0 && !self.lambda_params.is_empty() {
            if let Some(rewritten) = self.steps(expr) {
                self.found.push((expr.range(), rewritten));
            }
        }
        walk_expr(self, expr);
    }
}

/// Every name an expression reads, nested lambdas and comprehensions included.
fn names_read(expr: &Expr) -> HashSet<String> {
    struct Names(HashSet<String>);
    impl Visitor<'_> for Names {
        fn visit_expr(&mut self, expr: &Expr) {
            if let Expr::Name(n) = expr {
                self.0.insert(n.id.to_string());
            }
            walk_expr(self, expr);
        }
    }
    let mut names = Names(HashSet::default());
    names.visit_expr(expr);
    names.0
}

#[cfg(test)]
mod tests {
    use super::without_walrus_in_iterables as rewrite;

    #[test]
    fn helper_steps_in_an_iterable_become_nested_lambdas() {
        let e = "[c.value for c in (lambda cli, args: (comp := Make(cli), comp.items(args))[-1])(cli, [])]";
        assert_eq!(
            rewrite(e).as_deref(),
            Some("[c.value for c in (lambda cli, args: (lambda comp: comp.items(args))(Make(cli)))(cli, [])]")
        );
        // A plain step, and a step that rebinds a parameter from its old value.
        let e = "[v for v in (lambda x: (log(x), x := x + 1, [x])[-1])(1)]";
        assert_eq!(
            rewrite(e).as_deref(),
            Some("[v for v in (lambda x: (lambda _bx_step: (lambda x: [x])(x + 1))(log(x)))(1)]")
        );
        // Nested helpers: the inner one first, then the outer.
        let e = "[v for v in (lambda x: (y := (lambda z: (w := z, [w])[-1])(x), y)[-1])(1)]";
        let out = rewrite(e).expect("rewritten");
        assert!(crate::portable::compile_error(&out).is_none(), "{out}");
        assert!(!out.contains(":="), "{out}");
    }

    #[test]
    fn not_where_a_step_reads_what_it_or_a_later_step_binds() {
        // `y` read before it is bound: the lambda form raises, a nested lambda would read an outer `y`.
        assert_eq!(
            rewrite("[v for v in (lambda x: (f := (lambda: y), y := 1, f())[-1])(1)]"),
            None
        );
        assert_eq!(
            rewrite("[v for v in (lambda x: (y := y + 1, [y])[-1])(1)]"),
            None
        );
        // Nothing to do outside an iterable.
        assert_eq!(rewrite("(lambda x: (y := x, y)[-1])(1)"), None);
    }
}
