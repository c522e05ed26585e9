//! The names Python gives the functions and generators code creates: `__qualname__` (and the code
//! object's `co_qualname`) says where the code was written, `__module__` which module's globals it
//! ran in. A lambda or generator expression a test writes is code of the test function, so pytest
//! names it `test_x.<locals>.<lambda>` (`test_x.<locals>.<genexpr>`); the same text inside a fold's
//! lambda compiles to `<lambda>.<locals>.<lambda>`. A conftest fixture's value is computed in the
//! conftest's module: what it creates says `conftest` (`__module__` of a lambda, and what
//! `type(…)`, `collections.namedtuple` or a functional `enum.Enum` read from their caller's
//! globals), and its lambdas are `key.<locals>.<lambda>`.
//!
//! Both are reproduced, not dropped: the code objects are renamed before they run, with
//! [`RENAMER`], bound as `_bx_F` around the whole check ([`with_qualnames`]). `_bx_F(f, name,
//! qualname[, sep[, module]])` gives the function `f` a code object named `name`/`qualname` whose
//! nested code objects (every lambda, generator expression and comprehension it creates, at any
//! depth) carry the qualnames the compiler gives them under that name (`qualname` + `sep` +
//! their own name, `sep` `.<locals>.` for a function, `.` for a class body); with `module`, a new
//! function over a copy of `f`'s globals whose `__name__` is `module` (the conftest's), so that
//! what reads its caller's globals reads that name. The extractor's own scopes (a loop's
//! comprehension, the wrapper of a nested `def`: each has a local with the reserved prefix `_bx_`)
//! are transparent: what they create is named as if they were not there. Code objects carry their
//! qualname from Python 3.11 (`co_qualname`); before it the renamer renames the functions only.

use ruff_python_ast::Expr;

use super::items::Piece;
use crate::walk::{any_expr, Scope};

/// `_bx_F`: see the module's docs. Its only free name is `__import__`.
pub(super) const RENAMER: &str = "(lambda r, b: lambda f, n, q, s=\".<locals>.\", m=None: (b.setattr(f, \"__code__\", r(r, f.__code__, n, q, q, s)), b.setattr(f, \"__name__\", n), b.setattr(f, \"__qualname__\", q), f)[-1] if m is None else __import__(\"types\").FunctionType(r(r, f.__code__, n, q, q, s), {**f.__globals__, \"__name__\": m}, n, f.__defaults__, f.__closure__))(lambda r, c, n, q, p, s, b=__import__(\"builtins\"): c.replace(**({\"co_qualname\": q} if b.hasattr(c, \"co_qualname\") else {}), co_name=n, co_consts=b.tuple(k if b.type(k) is not b.type(c) else r(r, k, k.co_name, q, p, s) if b.any(v[:4] == \"_bx_\" for v in k.co_varnames) else r(r, k, k.co_name, p + s + k.co_name, p + s + k.co_name, \".<locals>.\") for k in c.co_consts)), __import__(\"builtins\"))";

/// The name of the renamer inside a check.
pub(super) const NAME: &str = "_bx_F";

/// Whether code creates a function or generator whose name can be observed: a lambda or a
/// generator expression, at any depth.
pub(super) fn creates_named(e: &Expr) -> bool {
    any_expr(e, Scope::All, named)
}

/// Builtins that consume a generator given as their argument and hand nothing of it on (the
/// generator object is theirs alone): its name is observed by no code of the candidate's.
const CONSUMERS: &[&str] = &[
    "tuple",
    "list",
    "set",
    "frozenset",
    "sorted",
    "sum",
    "any",
    "all",
    "min",
    "max",
    "dict",
];

/// Builtins that call a `key=` function and hand it on to nothing.
const KEY_CALLERS: &[&str] = &["sorted", "min", "max"];

/// `creates_named`, except where what is created reaches builtins alone: a generator expression
/// that is the one argument of `tuple`, `sorted`, `any`, … or of `"…".join`, a lambda that is the
/// `key=` of `sorted`, `min` or `max` (`builtin(name)`: the name is the real builtin there), a
/// lambda called where it is written. What they create inside is still looked at.
pub(super) fn observably_named(e: &Expr, builtin: &dyn Fn(&str) -> bool) -> bool {
    observably_named_with(e, builtin, false)
}

/// `observably_named` in a `unittest.TestCase` test, where `self.assertRaises(E, lambda: …)` (and
/// `assertRaisesRegex`, `assertWarns`, `assertWarnsRegex`) hands the lambda to unittest alone, which
/// calls it: the candidate sees its name only through frames (a stated limit of the contract).
pub(super) fn observably_named_in_unittest(e: &Expr, builtin: &dyn Fn(&str) -> bool) -> bool {
    observably_named_with(e, builtin, true)
}

fn observably_named_with(e: &Expr, builtin: &dyn Fn(&str) -> bool, unittest: bool) -> bool {
    use ruff_python_ast::visitor::{walk_expr, Visitor};
    struct Finder<'b> {
        builtin: &'b dyn Fn(&str) -> bool,
        found: bool,
        unittest: bool,
    }
    impl<'a> Visitor<'a> for Finder<'_> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if self.found {
                return;
            }
            if let Expr::Call(call) = e {
                if self.unittest
                    && matches!(call.func.as_ref(), Expr::Attribute(a)
                        if matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == "self")
                            && matches!(a.attr.as_str(),
                                "assertRaises" | "assertRaisesRegex" | "assertWarns" | "assertWarnsRegex"))
                {
                    self.visit_expr(&call.func);
                    for arg in call.arguments.args.iter() {
                        match arg {
                            Expr::Lambda(_) => walk_expr(self, arg),
                            _ => self.visit_expr(arg),
                        }
                    }
                    call.arguments
                        .keywords
                        .iter()
                        .for_each(|k| self.visit_expr(&k.value));
                    return;
                }
                // A lambda called where it is written: the function object reaches nothing.
                if let Expr::Lambda(_) = call.func.as_ref() {
                    walk_expr(self, &call.func);
                    call.arguments.args.iter().for_each(|a| self.visit_expr(a));
                    call.arguments
                        .keywords
                        .iter()
                        .for_each(|k| self.visit_expr(&k.value));
                    return;
                }
                let consumer = match call.func.as_ref() {
                    Expr::Name(n) => (self.builtin)(n.id.as_str()).then_some(n.id.as_str()),
                    Expr::Attribute(a)
                        if a.attr.as_str() == "join"
                            && matches!(a.value.as_ref(), Expr::StringLiteral(_)) =>
                    {
                        Some("join")
                    }
                    _ => None,
                };
                if let Some(consumer) = consumer {
                    self.visit_expr(&call.func);
                    let args = &call.arguments.args;
                    for arg in args.iter() {
                        match arg {
                            Expr::Generator(_)
                                if args.len() == 1
                                    && (consumer == "join" || CONSUMERS.contains(&consumer)) =>
                            {
                                walk_expr(self, arg)
                            }
                            _ => self.visit_expr(arg),
                        }
                    }
                    for k in call.arguments.keywords.iter() {
                        match &k.value {
                            Expr::Lambda(_)
                                if KEY_CALLERS.contains(&consumer)
                                    && k.arg.as_ref().is_some_and(|a| a.as_str() == "key") =>
                            {
                                walk_expr(self, &k.value)
                            }
                            v => self.visit_expr(v),
                        }
                    }
                    return;
                }
            }
            if named(e) {
                self.found = true;
                return;
            }
            walk_expr(self, e);
        }
    }
    let mut finder = Finder {
        builtin,
        found: false,
        unittest,
    };
    finder.visit_expr(e);
    finder.found
}

/// Whether a replayed piece writes a lambda or generator expression of the test's source, or
/// text that calls the renamer (a conftest fixture's value, a nested definition).
pub(super) fn piece_creates_named(piece: &Piece, builtin: &dyn Fn(&str) -> bool) -> bool {
    let creates_named = |e: &Expr| observably_named(e, builtin);
    let piece_creates_named = |p: &Piece| piece_creates_named(p, builtin);
    match piece {
        Piece::Bind(targets, value) => targets.iter().any(creates_named) || creates_named(value),
        Piece::BindName(_, e)
        | Piece::BindParams(_, e)
        | Piece::Eval(e)
        | Piece::Check(e)
        | Piece::HelperCheck(e) => creates_named(e),
        Piece::BindIndexed(_, text) => text.contains(NAME),
        Piece::Unpack(a, b)
        | Piece::Store(a, b)
        | Piece::Augmented(a, _, b)
        | Piece::DelItem(a, b) => creates_named(a) || creates_named(b),
        Piece::DelAttr(e, _) => creates_named(e),
        Piece::Def(d, _) => def_creates_named(d),
        Piece::Class(c, _) => class_creates_named(c),
        Piece::ImportNames(..) | Piece::Unbind(_) => false,
        Piece::Cond(clauses) => clauses
            .iter()
            .any(|(c, body)| c.is_some_and(creates_named) || body.iter().any(piece_creates_named)),
        Piece::Loop(t, it, body) => {
            creates_named(t) || creates_named(it) || body.iter().any(piece_creates_named)
        }
        Piece::Raises(r) => creates_named(r.expr) || r.body.iter().any(|e| creates_named(e)),
    }
}

/// A nested `def` whose statement (decorators, defaults, body) writes a lambda or generator
/// expression: its function is named by the renamer (`definitions::function`), so that what it
/// creates is named after it.
pub(super) fn def_creates_named(d: &ruff_python_ast::StmtFunctionDef) -> bool {
    any_expr(d.body.as_slice(), Scope::All, named)
        || d.decorator_list
            .iter()
            .any(|x| creates_named(&x.expression))
        || d.parameters
            .iter_non_variadic_params()
            .any(|p| p.default.as_deref().is_some_and(creates_named))
}

/// A nested `class` whose statement writes a lambda or generator expression: its body is named
/// by the renamer (`definitions::class`), what it creates directly being `Class.<lambda>`.
pub(super) fn class_creates_named(c: &ruff_python_ast::StmtClassDef) -> bool {
    any_expr(c.body.as_slice(), Scope::All, named)
        || c.arguments.as_deref().is_some_and(|a| {
            a.args.iter().any(creates_named) || a.keywords.iter().any(|k| creates_named(&k.value))
        })
        || c.decorator_list
            .iter()
            .any(|d| creates_named(&d.expression))
}

fn named(e: &Expr) -> bool {
    matches!(e, Expr::Lambda(_) | Expr::Generator(_))
}

/// A check as pytest's test function runs it: `text` (a fold `(lambda: …)()` or an expression)
/// run as the body of a function named `name`/`qualname`, whose nested code objects are renamed
/// before it runs (see the module's docs), with `_bx_F` bound for the renames inside it.
pub(super) fn with_qualnames(text: &str, name: &str, qualname: &str) -> String {
    let body = fold_body(text).unwrap_or(text);
    format!("(lambda {NAME}: {NAME}(lambda: {body}, \"{name}\", \"{qualname}\")())({RENAMER})")
}

/// The body of a fold `(lambda: body)()`, when `text` is one.
fn fold_body(text: &str) -> Option<&str> {
    let parsed = ruff_python_parser::parse_expression(text).ok()?;
    let Expr::Call(call) = parsed.expr() else {
        return None;
    };
    if !call.arguments.is_empty() {
        return None;
    }
    let Expr::Lambda(lambda) = call.func.as_ref() else {
        return None;
    };
    if lambda.parameters.is_some() {
        return None;
    }
    let range = ruff_text_size::Ranged::range(lambda.body.as_ref());
    text.get(range.start().to_usize()..range.end().to_usize())
}
