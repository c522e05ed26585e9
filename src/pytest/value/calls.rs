//! Calls: `re.compile`, the file's one-expression functions, instances of plain classes, and the
//! builtins whose results the file alone shows (`range`, `float`, `int`, `str`, `repr`, `len`…).

use ruff_python_ast::{self as ast, Expr, Stmt};

use crate::module::Global;

use super::names::is_dataclass;
use super::ops::exact_float;
use super::{binds, py_repr, py_str, Env, Evaluator, Place, PyValue, MAX_LEN};

impl<'s, 'a> Evaluator<'s, 'a> {
    pub(super) fn call_expr(
        &self,
        c: &'a ast::ExprCall,
        place: Place<'a>,
        env: &Env<'a>,
        d: usize,
    ) -> PyValue<'a> {
        // `re.compile("...")`.
        if let Expr::Attribute(a) = c.func.as_ref() {
            if let Expr::Name(n) = a.value.as_ref() {
                if let Some(Global::Import { module, .. }) = self.scope.globals.get(n.id.as_str()) {
                    if module == "re"
                        && a.attr.as_str() == "compile"
                        && c.arguments.keywords.is_empty()
                    {
                        if let [arg] = &*c.arguments.args {
                            return match self.eval_in(arg, place, env, d) {
                                PyValue::Str(s) => PyValue::Pattern(s),
                                _ => PyValue::unknown("`re.compile` of a computed pattern"),
                            };
                        }
                    }
                }
            }
        }
        // Context managers of the standard library and pytest whose instances have no
        // `__name__` (pytest's id is then `argname + index`): `contextlib.nullcontext(…)`, and
        // `pytest.raises(E)` / `pytest.warns(W)` of a builtin class.
        let path = match c.func.as_ref() {
            Expr::Name(n) => match self.scope.globals.get(n.id.as_str()) {
                Some(Global::Import { module, .. }) => Some(module.clone()),
                _ => None,
            },
            Expr::Attribute(a) => match a.value.as_ref() {
                Expr::Name(n) => match self.scope.globals.get(n.id.as_str()) {
                    Some(Global::Import { module, .. }) => Some(format!("{module}.{}", a.attr)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let builtin_class = |arg: &Expr| {
            matches!(arg, Expr::Name(n)
                if !self.scope.globals.contains_key(n.id.as_str())
                    && !self.scope.star_import
                    && ruff_python_stdlib::builtins::is_python_builtin(n.id.as_str(), 13, false)
                    && (n.id.ends_with("Error")
                        || n.id.ends_with("Warning")
                        || n.id.ends_with("Exception")))
        };
        let no_keywords = c.arguments.keywords.is_empty();
        match (path.as_deref(), &*c.arguments.args) {
            (Some("contextlib.nullcontext"), [] | [_]) if no_keywords => return PyValue::Opaque,
            (Some("pytest.raises" | "pytest.warns"), [arg])
                if no_keywords && builtin_class(arg) =>
            {
                return PyValue::Opaque
            }
            _ => {}
        }
        let callee = self.eval_in(&c.func, place, env, d);
        if !c.arguments.keywords.is_empty() {
            return match callee {
                PyValue::Named(n) if is_opaque_builtin(&n) && !n.is_empty() => PyValue::Opaque,
                _ => PyValue::unknown("a call with keyword arguments"),
            };
        }
        let args: Result<Vec<PyValue<'a>>, PyValue<'a>> =
            self.seq(&c.arguments.args, place, env, d);
        let args = match args {
            Ok(a) => a,
            Err(u) => return u,
        };
        if let Some(PyValue::Unknown(w)) = args.iter().find(|a| matches!(a, PyValue::Unknown(_))) {
            return PyValue::Unknown(w.clone());
        }
        match callee {
            PyValue::Func(_, Some(f)) if args.len() == 1 => {
                let arg = args.into_iter().next().unwrap_or(PyValue::None);
                self.call(&f, arg)
            }
            PyValue::Named(n) if !self.scope.globals.contains_key(n.as_str()) => {
                builtin_call(&n, args)
            }
            PyValue::Named(n) => match self.module_def(&n) {
                Some(Stmt::ClassDef(cls)) if self.plain_class(cls, 0) => PyValue::Opaque,
                _ => PyValue::unknown(format!("`{n}(...)` makes a value the file does not show")),
            },
            PyValue::Unknown(w) => PyValue::Unknown(w),
            _ => PyValue::unknown("a call the extractor does not evaluate"),
        }
    }

    /// A file class whose instances have no id of their own: no special bases, no `__name__`.
    fn plain_class(&self, c: &ast::StmtClassDef, depth: usize) -> bool {
        if depth > 8 || !c.decorator_list.iter().all(|d| is_dataclass(&d.expression)) {
            return false;
        }
        let bases_ok = c.arguments.as_deref().is_none_or(|a| {
            a.keywords.is_empty()
                && a.args.iter().all(|b| match b {
                    Expr::Name(n) if n.id.as_str() == "object" => true,
                    Expr::Name(n) => matches!(self.module_def(n.id.as_str()), Some(Stmt::ClassDef(p)) if self.plain_class(p, depth + 1)),
                    _ => false,
                })
        });
        bases_ok
            && !c.body.iter().any(|s| {
                binds(s, "__name__")
                    || binds(s, "__new__")
                    || binds(s, "__getattr__")
                    || binds(s, "__getattribute__")
            })
    }
}

/// Builtins whose results have no id of their own.
fn is_opaque_builtin(name: &str) -> bool {
    matches!(
        name,
        "list"
            | "tuple"
            | "dict"
            | "set"
            | "frozenset"
            | "object"
            | "range"
            | "bytearray"
            | "slice"
    )
}

fn builtin_call<'a>(name: &str, args: Vec<PyValue<'a>>) -> PyValue<'a> {
    if name == "range" {
        let ints: Option<Vec<i128>> = args
            .iter()
            .map(|a| match a {
                PyValue::Int(i) => Some(*i),
                _ => None,
            })
            .collect();
        let (start, stop, step) = match ints.as_deref() {
            Some([stop]) => (0, *stop, 1),
            Some([start, stop]) => (*start, *stop, 1),
            Some([start, stop, step]) if *step != 0 => (*start, *stop, *step),
            _ => return PyValue::unknown("`range()` of computed bounds"),
        };
        let mut out = Vec::new();
        let mut i = start;
        while (step > 0 && i < stop) || (step < 0 && i > stop) {
            out.push(PyValue::Int(i));
            if out.len() > MAX_LEN {
                return PyValue::unknown("a range too long for the extractor");
            }
            i += step;
        }
        return PyValue::List(out);
    }
    if is_opaque_builtin(name) {
        return match (name, args.as_slice()) {
            ("tuple", []) => PyValue::Tuple(vec![]),
            ("list", []) => PyValue::List(vec![]),
            ("tuple", [PyValue::Tuple(v) | PyValue::List(v)]) => PyValue::Tuple(v.clone()),
            ("list", [PyValue::Tuple(v) | PyValue::List(v)]) => PyValue::List(v.clone()),
            _ => PyValue::Opaque,
        };
    }
    match (name, args.as_slice()) {
        ("float", [PyValue::Str(s)]) => {
            let text = s.trim().to_ascii_lowercase().replace('_', "");
            match text.as_str() {
                "inf" | "+inf" | "infinity" | "+infinity" => PyValue::Float(f64::INFINITY),
                "-inf" | "-infinity" => PyValue::Float(f64::NEG_INFINITY),
                "nan" | "+nan" => PyValue::Float(f64::NAN),
                "-nan" => PyValue::Float(-f64::NAN),
                other => other
                    .parse::<f64>()
                    .map(PyValue::Float)
                    .unwrap_or_else(|_| PyValue::unknown("`float()` of text it refuses")),
            }
        }
        ("float", [PyValue::Int(i)]) => exact_float(*i)
            .map(PyValue::Float)
            .unwrap_or_else(|| PyValue::unknown("a large int as a float")),
        ("float", [PyValue::Float(f)]) => PyValue::Float(*f),
        ("int", [PyValue::Int(i)]) => PyValue::Int(*i),
        ("int", [PyValue::Bool(b)]) => PyValue::Int(i128::from(*b)),
        ("int", [PyValue::Str(s)]) => s
            .trim()
            .parse::<i128>()
            .map(PyValue::Int)
            .unwrap_or_else(|_| PyValue::unknown("`int()` of text")),
        ("str", [v]) => py_str(v)
            .map(PyValue::Str)
            .unwrap_or_else(|| PyValue::unknown("`str()` of a computed value")),
        ("repr", [v]) => py_repr(v)
            .map(PyValue::Str)
            .unwrap_or_else(|| PyValue::unknown("`repr()` of a computed value")),
        ("len", [PyValue::Str(s)]) => PyValue::Int(s.chars().count() as i128),
        ("len", [PyValue::Bytes(b)]) => PyValue::Int(b.len() as i128),
        ("len", [PyValue::Tuple(v) | PyValue::List(v)]) => PyValue::Int(v.len() as i128),
        ("complex", [a, b]) => match (real(a), real(b)) {
            (Some(a), Some(b)) => PyValue::Complex(a, b),
            _ => PyValue::unknown("`complex()` of computed parts"),
        },
        _ => PyValue::unknown(format!("`{name}(...)` is computed")),
    }
}

fn real(v: &PyValue) -> Option<f64> {
    match v {
        PyValue::Int(i) => exact_float(*i),
        PyValue::Float(f) => Some(*f),
        PyValue::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
}
