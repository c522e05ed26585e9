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
//! their own name, `sep` `.<locals>.` for a function, `.` for a class body or a comprehension, as
//! the compiler joins them: `t.<locals>.<listcomp>.<lambda>`); with `module`, a new
//! function over a copy of `f`'s globals whose `__name__` is `module` (the conftest's), so that
//! what reads its caller's globals reads that name. The extractor's own scopes (a loop's
//! comprehension, the wrapper of a nested `def`: each has a local with the reserved prefix `_bx_`)
//! are transparent: what they create is named as if they were not there. Code objects carry their
//! qualname from Python 3.11 (`co_qualname`); before it the renamer renames the functions only.

use ruff_python_ast::Expr;

use crate::walk::{any_expr, Scope};

/// `_bx_F`: see the module's docs. Its only free name is `__import__`.
pub(super) const RENAMER: &str = "(lambda r, b: lambda f, n, q, s=\".<locals>.\", m=None: (b.setattr(f, \"__code__\", r(r, f.__code__, n, q, q, s)), b.setattr(f, \"__name__\", n), b.setattr(f, \"__qualname__\", q), f)[-1] if m is None else __import__(\"types\").FunctionType(r(r, f.__code__, n, q, q, s), {**f.__globals__, \"__name__\": m}, n, f.__defaults__, f.__closure__))(lambda r, c, n, q, p, s, b=__import__(\"builtins\"): c.replace(**({\"co_qualname\": q} if b.hasattr(c, \"co_qualname\") else {}), co_name=n, co_consts=b.tuple(k if b.type(k) is not b.type(c) else r(r, k, k.co_name, q, p, s) if b.any(v[:4] == \"_bx_\" for v in k.co_varnames) else r(r, k, k.co_name, p + s + k.co_name, p + s + k.co_name, \".\" if k.co_name in (\"<listcomp>\", \"<genexpr>\", \"<setcomp>\", \"<dictcomp>\") else \".<locals>.\") for k in c.co_consts)), __import__(\"builtins\"))";

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

/// Where pytest runs replayed code that is not the test's own, so where what it creates is named:
/// the test module's top level (a module-level statement, a parametrize value, a test parameter's
/// default: `<lambda>`, `<genexpr>`), or a fixture function of the file (`fixture.<locals>.<lambda>`).
#[derive(Clone, Debug)]
pub enum Home {
    Module,
    /// A file fixture, by its function's name, with its parameters (the fixtures it requests).
    Fixture(String, Vec<String>),
}

impl Home {
    /// Whether `name`, read bare in the home's code, is the real builtin.
    fn builtin(&self, ctx: &super::Ctx, name: &str) -> bool {
        !matches!(self, Home::Fixture(_, params) if params.iter().any(|p| p == name))
            && !ctx.scope.globals.contains_key(name)
            && !ctx.scope.star_import
            && ruff_python_stdlib::builtins::is_python_builtin(name, 14, false)
    }

    /// Whether `e`, run in the home, creates a lambda or generator whose name can be observed.
    pub(super) fn names(&self, ctx: &super::Ctx, e: &Expr) -> bool {
        observably_named(e, &|n| self.builtin(ctx, n))
    }

    /// `text`, the value `e` written for the check, computed where pytest computes it: the body of
    /// a function the renamer names as the home (`_bx_F(lambda: text, "fixture", "fixture")()`; at
    /// the module's top level the qualname prefix is empty, so that a lambda is `<lambda>`), where
    /// it creates an observable lambda or generator; as it is otherwise. Calling a lambda at once
    /// computes the same value from the same names; only a `:=` inside it would bind elsewhere
    /// (in the wrapper, not in the fold), and such a value is refused.
    pub(super) fn value(
        &self,
        ctx: &super::Ctx,
        e: &Expr,
        text: String,
    ) -> Result<String, crate::rules::Reason> {
        if !self.names(ctx, e) {
            return Ok(text);
        }
        let (name, qualname, sep) = match self {
            Home::Module => ("<module>", "", ""),
            Home::Fixture(name, _) => (name.as_str(), name.as_str(), ".<locals>."),
        };
        if any_expr(e, Scope::All, |x| matches!(x, Expr::Named(_))) {
            return Err(crate::rules::Statements::UnreplayableStatement.because(format!(
                "`{}` on line {} creates a lambda or generator expression, which pytest names in {}, and binds a name with `:=` there too, which the function that names it would keep to itself",
                ctx.map.snippet(ruff_text_size::Ranged::range(e)),
                ctx.map.line(ruff_text_size::Ranged::range(e).start()),
                self.place()
            )));
        }
        Ok(format!(
            "{NAME}(lambda: {text}, \"{name}\", \"{qualname}\", \"{sep}\")()"
        ))
    }

    /// A part of a statement that cannot be the body of the naming function (a target): refused
    /// where it creates an observable lambda or generator.
    pub(super) fn refuse(&self, ctx: &super::Ctx, e: &Expr) -> Result<(), crate::rules::Reason> {
        if !self.names(ctx, e) {
            return Ok(());
        }
        let range = ruff_text_size::Ranged::range(e);
        Err(crate::rules::Statements::UnreplayableStatement.because(format!(
            "`{}` on line {} creates a lambda or generator expression, which pytest names in {}, where the check cannot compute it",
            ctx.map.snippet(range),
            ctx.map.line(range.start()),
            self.place()
        )))
    }

    /// [`Home::value`] where there is a home; `text` as it is where the code is the test's own.
    pub(super) fn at(
        home: Option<&Home>,
        ctx: &super::Ctx,
        e: &Expr,
        text: String,
    ) -> Result<String, crate::rules::Reason> {
        match home {
            Some(home) => home.value(ctx, e, text),
            None => Ok(text),
        }
    }

    /// Where the home's code runs, for messages.
    pub(super) fn place(&self) -> String {
        match self {
            Home::Module => "the test module's top level (`<lambda>`)".to_string(),
            Home::Fixture(name, _) => {
                format!("the fixture `{name}` (`{name}.<locals>.<lambda>`)")
            }
        }
    }
}
