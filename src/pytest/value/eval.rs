//! The evaluator's core: literals, sequences (with `*`), list comprehensions, f-strings, lambdas,
//! and calling an `ids` callable on a value.

use ruff_python_ast::{self as ast, Expr};

use super::names::one_param;
use super::ops::{binary, subscript, truth, unary};
use super::{py_repr, py_str, Callable, Env, Evaluator, Place, PyValue, MAX_DEPTH, MAX_LEN};

impl<'s, 'a> Evaluator<'s, 'a> {
    pub fn eval(&self, expr: &'a Expr, place: Place<'a>) -> PyValue<'a> {
        self.eval_in(expr, place, &Vec::new(), 0)
    }

    /// Call a one-argument function (an `ids` callable) on a value.
    pub fn call(&self, f: &Callable<'a>, arg: PyValue<'a>) -> PyValue<'a> {
        match f {
            Callable::Builtin("str") => py_str(&arg)
                .map(PyValue::Str)
                .unwrap_or_else(|| PyValue::unknown("`str()` of a value the file does not show")),
            Callable::Builtin(_) => py_repr(&arg)
                .map(PyValue::Str)
                .unwrap_or_else(|| PyValue::unknown("`repr()` of a value the file does not show")),
            Callable::Expr { param, body } => {
                self.eval_in(body, Place::module(), &vec![(param.clone(), arg)], 0)
            }
        }
    }

    pub(super) fn eval_in(
        &self,
        expr: &'a Expr,
        place: Place<'a>,
        env: &Env<'a>,
        depth: usize,
    ) -> PyValue<'a> {
        if depth > MAX_DEPTH {
            return PyValue::unknown("the value nests too deeply");
        }
        let d = depth + 1;
        match expr {
            Expr::StringLiteral(s) => PyValue::Str(s.value.to_str().to_string()),
            Expr::BytesLiteral(b) => PyValue::Bytes(b.value.bytes().collect()),
            Expr::NumberLiteral(n) => match &n.value {
                ast::Number::Int(i) => int_literal(i),
                ast::Number::Float(f) => PyValue::Float(*f),
                ast::Number::Complex { real, imag } => PyValue::Complex(*real, *imag),
            },
            Expr::BooleanLiteral(b) => PyValue::Bool(b.value),
            Expr::NoneLiteral(_) => PyValue::None,
            Expr::EllipsisLiteral(_) => PyValue::Opaque,
            Expr::Tuple(t) => self
                .seq(&t.elts, place, env, d)
                .map_or_else(|u| u, PyValue::Tuple),
            Expr::List(l) => self
                .seq(&l.elts, place, env, d)
                .map_or_else(|u| u, PyValue::List),
            Expr::Dict(_) | Expr::Set(_) | Expr::DictComp(_) | Expr::SetComp(_) => PyValue::Opaque,
            Expr::Lambda(l) => {
                let callable = one_param(l.parameters.as_deref()).map(|param| Callable::Expr {
                    param,
                    body: &l.body,
                });
                PyValue::Func("<lambda>".into(), callable)
            }
            Expr::ListComp(c) => self.list_comp(c, place, env, d),
            Expr::UnaryOp(u) => unary(u.op, self.eval_in(&u.operand, place, env, d)),
            Expr::BinOp(b) => binary(
                b.op,
                self.eval_in(&b.left, place, env, d),
                self.eval_in(&b.right, place, env, d),
            ),
            Expr::FString(f) => self.fstring(f, place, env, d),
            Expr::Subscript(s) => {
                let value = self.eval_in(&s.value, place, env, d);
                let index = self.eval_in(&s.slice, place, env, d);
                subscript(value, index)
            }
            Expr::Name(n) => self.name(n.id.as_str(), place, env, d),
            Expr::Attribute(a) => self.attribute(a, expr, place, env, d),
            Expr::Call(c) => self.call_expr(c, place, env, d),
            _ => PyValue::unknown(format!("`{}` is computed", kind_of(expr))),
        }
    }

    pub(super) fn seq(
        &self,
        elts: &'a [Expr],
        place: Place<'a>,
        env: &Env<'a>,
        d: usize,
    ) -> Result<Vec<PyValue<'a>>, PyValue<'a>> {
        let mut out = Vec::with_capacity(elts.len());
        for e in elts {
            if let Expr::Starred(s) = e {
                match self.eval_in(&s.value, place, env, d) {
                    PyValue::Tuple(v) | PyValue::List(v) => out.extend(v),
                    PyValue::Unknown(w) => return Err(PyValue::Unknown(w)),
                    _ => {
                        return Err(PyValue::unknown(
                            "`*` unpacks a value the file does not show",
                        ))
                    }
                }
            } else {
                out.push(self.eval_in(e, place, env, d));
            }
        }
        Ok(out)
    }

    /// `[elt for x in <literal sequence or range>]`, one generator, `if` filters allowed.
    fn list_comp(
        &self,
        c: &'a ast::ExprListComp,
        place: Place<'a>,
        env: &Env<'a>,
        d: usize,
    ) -> PyValue<'a> {
        let [generator] = c.generators.as_slice() else {
            return PyValue::unknown("a comprehension with several `for`s");
        };
        if generator.is_async {
            return PyValue::unknown("an async comprehension");
        }
        let items = match self.eval_in(&generator.iter, place, env, d) {
            PyValue::Tuple(v) | PyValue::List(v) => v,
            PyValue::Str(s) => s.chars().map(|c| PyValue::Str(c.to_string())).collect(),
            PyValue::Unknown(w) => return PyValue::Unknown(w),
            _ => return PyValue::unknown("a comprehension over a value the file does not show"),
        };
        let mut out = Vec::new();
        for item in items {
            let mut inner = env.clone();
            if !bind_target(&generator.target, item, &mut inner) {
                return PyValue::unknown("a comprehension target the extractor does not unpack");
            }
            let mut keep = true;
            for cond in &generator.ifs {
                match truth(&self.eval_in(cond, place, &inner, d)) {
                    Some(t) => keep &= t,
                    None => {
                        return PyValue::unknown("a comprehension filter the file does not show")
                    }
                }
            }
            if keep {
                out.push(self.eval_in(&c.elt, place, &inner, d));
            }
            if out.len() > MAX_LEN {
                return PyValue::unknown("too many cases");
            }
        }
        PyValue::List(out)
    }

    fn fstring(
        &self,
        f: &'a ast::ExprFString,
        place: Place<'a>,
        env: &Env<'a>,
        d: usize,
    ) -> PyValue<'a> {
        let mut out = String::new();
        for part in f.value.iter() {
            match part {
                ast::FStringPart::Literal(l) => out.push_str(&l.value),
                ast::FStringPart::FString(fs) => {
                    for element in fs.elements.iter() {
                        match element {
                            ast::InterpolatedStringElement::Literal(l) => out.push_str(&l.value),
                            ast::InterpolatedStringElement::Interpolation(i) => {
                                if i.format_spec.is_some() || i.debug_text.is_some() {
                                    return PyValue::unknown("an f-string with a format spec");
                                }
                                let v = self.eval_in(&i.expression, place, env, d);
                                if let PyValue::Unknown(w) = v {
                                    return PyValue::Unknown(w);
                                }
                                let text = match i.conversion {
                                    ast::ConversionFlag::Repr => py_repr(&v),
                                    ast::ConversionFlag::None | ast::ConversionFlag::Str => {
                                        // `format(v, "")` is `str(v)`, except for enums with
                                        // mixins (Python 3.12 changed those): not followed.
                                        if matches!(v, PyValue::Enum(_)) {
                                            None
                                        } else {
                                            py_str(&v)
                                        }
                                    }
                                    ast::ConversionFlag::Ascii => None,
                                };
                                match text {
                                    Some(t) => out.push_str(&t),
                                    None => {
                                        return PyValue::unknown(
                                            "an f-string shows a value the file does not show",
                                        )
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        PyValue::Str(out)
    }
}

fn int_literal<'a>(i: &ast::Int) -> PyValue<'a> {
    if let Some(v) = i.as_u64() {
        return PyValue::Int(i128::from(v));
    }
    let text = i.to_string().replace('_', "").to_ascii_lowercase();
    let parsed = if let Some(h) = text.strip_prefix("0x") {
        i128::from_str_radix(h, 16)
    } else if let Some(o) = text.strip_prefix("0o") {
        i128::from_str_radix(o, 8)
    } else if let Some(b) = text.strip_prefix("0b") {
        i128::from_str_radix(b, 2)
    } else {
        text.parse()
    };
    parsed
        .map(PyValue::Int)
        .unwrap_or_else(|_| PyValue::unknown("an int too large for the extractor"))
}

fn bind_target<'a>(target: &Expr, value: PyValue<'a>, env: &mut Env<'a>) -> bool {
    match target {
        Expr::Name(n) => {
            env.push((n.id.to_string(), value));
            true
        }
        Expr::Tuple(ast::ExprTuple { elts, .. }) | Expr::List(ast::ExprList { elts, .. }) => {
            let (PyValue::Tuple(items) | PyValue::List(items)) = value else {
                return false;
            };
            items.len() == elts.len()
                && elts
                    .iter()
                    .zip(items)
                    .all(|(t, v)| !matches!(t, Expr::Starred(_)) && bind_target(t, v, env))
        }
        _ => false,
    }
}

fn kind_of(expr: &Expr) -> &'static str {
    match expr {
        Expr::Compare(_) => "a comparison",
        Expr::BoolOp(_) => "a boolean operation",
        Expr::If(_) => "a conditional expression",
        Expr::Generator(_) => "a generator",
        Expr::Named(_) => "an assignment expression",
        Expr::Await(_) | Expr::Yield(_) | Expr::YieldFrom(_) => "an await or yield",
        Expr::Starred(_) => "a starred value",
        Expr::Slice(_) => "a slice",
        _ => "the value",
    }
}
