//! How long an assert's intermediate values live under pytest.
//!
//! pytest rewrites every `assert` of a test module (`_pytest/assertion/rewrite.py`) so that it can
//! explain a failure: walking the test from the top, it stores the value of each call, attribute
//! read, operator, comparison and `and`/`or` operand it passes through (a name or a constant is not
//! stored; any other node, a subscript or a list display, is stored whole without looking inside) in
//! a temporary of the test's frame, and clears those temporaries only when the assert is done. Plain
//! Python lets such a value go as soon as the operation that consumes it is done: in
//! `sol.Handle().token == sol.live()` the `Handle` is released before `live()` runs, where under
//! pytest it is still alive. A finalizer, a weak reference or a generator's `finally` sees the
//! difference.
//!
//! So when a consumed intermediate value that may be a new object (a call's result, an operator's,
//! a subscript's, a display's: not an attribute's, a comparison's or a name's) is followed, within
//! the check, by code that could observe its release (a call, an attribute read, a subscript), the
//! check holds it as pytest does: each such value is bound to a temporary (`_bx_h0 := …`) inside a
//! lambda of the check's own, which lets them all go when the check is done, as pytest's clearing
//! does: `(lambda: (_bx_h0 := sol.Handle()).token == sol.live())()`.

use crate::sort::SharedSort as _;
use ruff_python_ast::Expr;
use ruff_python_parser::parse_expression;
use ruff_text_size::{Ranged, TextRange};

/// The check `text` (an assert's test, rendered) with pytest's lifetimes for its intermediate
/// values; unchanged when no release could be observed within it. An error when the values would
/// need holding and the check binds a name with `:=` (its own lambda would keep that binding from
/// the rest of the test).
pub fn hold_as_pytest(text: String) -> Result<String, crate::rules::Reason> {
    // Deeper than CPython compiles, the expression is dropped anyway (`emit::kept`).
    if crate::names::bracket_depth(&text) > MAX_DEPTH {
        return Ok(text);
    }
    let Ok(parsed) = parse_expression(&text) else {
        return Ok(text);
    };
    let mut walk = Walk::default();
    walk.visit(parsed.expr(), 0);
    let holds = walk.observed();
    if holds.is_empty() {
        return Ok(text);
    }
    if walk.walrus {
        return Err(crate::rules::Statements::WalrusInHeldAssert.because("pytest's assertion rewriting keeps the assert's intermediate values alive until it is done, which one expression holds only in a scope of its own, where the assert's `:=` would not bind the test's name"));
    }
    Ok(format!("(lambda: {})()", with_holds(&text, &holds)))
}

const MAX_DEPTH: usize = 200;

/// What happens, in evaluation order, as pytest's rewritten assert runs.
#[derive(Default)]
struct Walk {
    events: Vec<Event>,
    walrus: bool,
}

enum Event {
    /// Code that may observe a release runs (a call, an attribute read, a subscript).
    Code,
    /// A stored intermediate value is consumed by the operation around it: plain Python lets it go
    /// here, pytest at the end of the assert.
    Consumed(TextRange),
}

impl Walk {
    fn visit(&mut self, e: &Expr, depth: usize) {
        if depth > MAX_DEPTH {
            self.events.push(Event::Code);
            return;
        }
        let d = depth + 1;
        match e {
            Expr::Call(c) => {
                // `x.m(…)`: the bound method holds `x` until the call is done.
                let receiver = match c.func.as_ref() {
                    Expr::Attribute(a) => {
                        self.visit(&a.value, d);
                        self.events.push(Event::Code);
                        Some(a.value.as_ref())
                    }
                    other => {
                        self.visit(other, d);
                        None
                    }
                };
                for a in c.arguments.args.iter() {
                    self.visit(a, d);
                }
                for k in c.arguments.keywords.iter() {
                    self.visit(&k.value, d);
                }
                self.events.push(Event::Code);
                if let Some(receiver) = receiver {
                    self.consume(receiver);
                }
                self.consume(&c.func);
                for a in c.arguments.args.iter() {
                    self.consume(a);
                }
                for k in c.arguments.keywords.iter() {
                    self.consume(&k.value);
                }
            }
            // A standard-library module's attribute (`__import__("sys").maxsize`) observes nothing.
            Expr::Attribute(a) if is_import_call(&a.value) => {}
            Expr::Attribute(a) => {
                self.visit(&a.value, d);
                self.events.push(Event::Code);
                self.consume(&a.value);
            }
            Expr::BinOp(b) => {
                self.visit(&b.left, d);
                self.visit(&b.right, d);
                self.consume(&b.left);
                self.consume(&b.right);
            }
            Expr::UnaryOp(u) => {
                self.visit(&u.operand, d);
                self.consume(&u.operand);
            }
            Expr::Compare(c) => {
                self.visit(&c.left, d);
                for x in c.comparators.iter() {
                    self.visit(x, d);
                }
                self.consume(&c.left);
                for x in c.comparators.iter() {
                    self.consume(x);
                }
            }
            Expr::BoolOp(b) => {
                let last = b.values.len().saturating_sub(1);
                for (i, v) in b.values.iter().enumerate() {
                    self.visit(v, d);
                    if i < last {
                        // After its truth test, the operand is let go as the next one starts.
                        self.consume(v);
                    }
                }
            }
            Expr::Starred(s) => self.visit(&s.value, d),
            Expr::Named(_) => {
                self.walrus = true;
                self.events.push(Event::Code);
            }
            Expr::Name(_)
            | Expr::NumberLiteral(_)
            | Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_)
            | Expr::EllipsisLiteral(_) => {}
            // Stored whole by pytest; whatever runs inside runs as in plain Python.
            other => {
                if contains_walrus(other) {
                    self.walrus = true;
                }
                if may_observe(other) {
                    self.events.push(Event::Code);
                }
            }
        }
    }

    /// A child value consumed by its parent, which pytest stored: it matters when it may be a new
    /// object whose release may run code (a call's result, or a display or comprehension holding
    /// one); a name, a constant, an attribute's value, a comparison's or an operator's result over
    /// what the test holds anyway do not.
    fn consume(&mut self, child: &Expr) {
        let stored = match child {
            Expr::Call(_) => !is_import_call(child),
            Expr::List(_)
            | Expr::Tuple(_)
            | Expr::Set(_)
            | Expr::Dict(_)
            | Expr::ListComp(_)
            | Expr::SetComp(_)
            | Expr::DictComp(_)
            | Expr::Generator(_) => ruff_python_ast::helpers::any_over_expr(child, &|x: &Expr| {
                matches!(x, Expr::Call(_)) && !is_import_call(x)
            }),
            _ => false,
        };
        if stored {
            self.events.push(Event::Consumed(child.range()));
        }
    }

    /// The consumed values after which code still runs in the check: their release could be
    /// observed there.
    fn observed(&self) -> Vec<TextRange> {
        let mut code_after = false;
        let mut out = Vec::new();
        for event in self.events.iter().rev() {
            match event {
                Event::Code => code_after = true,
                Event::Consumed(r) if code_after => out.push(*r),
                Event::Consumed(_) => {}
            }
        }
        out
    }
}

/// Whether evaluating `e` may run code that observes a release: a call, an attribute read, a
/// subscript, an iteration.
fn may_observe(e: &Expr) -> bool {
    ruff_python_ast::helpers::any_over_expr(e, &|x: &Expr| {
        matches!(
            x,
            Expr::Call(_)
                | Expr::Attribute(_)
                | Expr::Subscript(_)
                | Expr::ListComp(_)
                | Expr::SetComp(_)
                | Expr::DictComp(_)
                | Expr::Generator(_)
                | Expr::Await(_)
        )
    })
}

/// `__import__("m")` (the fold's spelling of a standard-library module): a module, never new.
fn is_import_call(e: &Expr) -> bool {
    matches!(e, Expr::Call(c) if matches!(c.func.as_ref(), Expr::Name(n) if n.id == "__import__"))
}

fn contains_walrus(e: &Expr) -> bool {
    ruff_python_ast::helpers::any_over_expr(e, &|x: &Expr| matches!(x, Expr::Named(_)))
}

/// `text` with each range wrapped as `(_bx_hN := …)`, nested ranges inside their parents.
fn with_holds(text: &str, holds: &[TextRange]) -> String {
    let mut holds: Vec<TextRange> = holds.to_vec();
    holds.sort_shared_by_key(|r| (r.start(), std::cmp::Reverse(r.end())));
    holds.dedup();
    // Insertions: an opening at each start (outer ones first), a closing at each end (inner ones
    // first), in text order.
    let mut inserts: Vec<(usize, u8, usize, String)> = Vec::new();
    for (k, r) in holds.iter().enumerate() {
        let len = r.len().to_usize();
        inserts.push((
            r.start().to_usize(),
            1,
            usize::MAX - len,
            format!("(_bx_h{k} := "),
        ));
        inserts.push((r.end().to_usize(), 0, len, ")".to_string()));
    }
    // At one offset, closings come before openings; closings of shorter ranges first, openings of
    // longer ranges first.
    inserts.sort_shared_by_key(|(at, kind, order, _)| (*at, *kind, *order));
    let mut out = String::with_capacity(text.len() + inserts.len() * 12);
    let mut at = 0;
    for (pos, _, _, s) in inserts {
        out.push_str(&text[at..pos]);
        out.push_str(&s);
        at = pos;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::hold_as_pytest;

    fn held(text: &str) -> String {
        hold_as_pytest(text.to_string()).unwrap()
    }

    #[test]
    fn nothing_observes_a_release_in_plain_checks() {
        for text in [
            "f(1) == 2",
            "c.get(1) == \"a\"",
            "sorted(xs) == [1, 2]",
            "sorted(make()) == [1, 2]",
            "len(c.items()) == 2",
            "c.size == 1 and c.top() == 2",
            "x",
            "not f()",
        ] {
            assert_eq!(held(text), text);
        }
    }

    #[test]
    fn a_consumed_value_before_later_code_is_held_until_the_check_ends() {
        assert_eq!(
            held("sol.Handle().token == sol.live()"),
            "(lambda: (_bx_h0 := sol.Handle()).token == sol.live())()"
        );
        assert_eq!(
            held("next(sol.stream()) == 0 and sol.CLOSED == 0"),
            "(lambda: (_bx_h0 := next((_bx_h1 := sol.stream()))) == 0 and sol.CLOSED == 0)()"
        );
        assert_eq!(
            held("f(g()) == h()"),
            "(lambda: f((_bx_h0 := g())) == h())()"
        );
    }

    #[test]
    fn the_held_check_evaluates_as_the_original() {
        let text = held("len(sol.Batch([1, 2]).items) == sol.open_batches() + 1");
        assert!(
            ruff_python_parser::parse_expression(&text).is_ok(),
            "{text}"
        );
        assert!(text.starts_with("(lambda: "), "{text}");
    }

    #[test]
    fn a_walrus_cannot_be_held_apart() {
        assert!(hold_as_pytest("(h := sol.Handle()).ok() and sol.live() == 1".into()).is_err());
        assert_eq!(held("(y := f()) == 1"), "(y := f()) == 1");
    }
}
