//! What pytest sees when it evaluates a parametrize argument at import time, as far as the test file
//! alone shows it: literals, arithmetic on them (Python's own rules), the file's constants (its
//! class bodies first for a method's decorators), its functions, classes and enum members, and the
//! solution's functions and classes by name. Anything else is [`PyValue::Unknown`]: its id would
//! take running code to know.

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextSize};

use crate::module::{Global, ModuleScope};
use crate::pytest::ids;

/// How deep names and calls are followed.
const MAX_DEPTH: usize = 48;
/// Strings, bytes and sequences longer than this are not built.
const MAX_LEN: usize = 100_000;

/// An evaluated value, as far as ids go.
#[derive(Clone, Debug, PartialEq)]
pub enum PyValue<'a> {
    None,
    Bool(bool),
    Int(i128),
    Float(f64),
    Complex(f64, f64),
    Str(String),
    Bytes(Vec<u8>),
    Tuple(Vec<PyValue<'a>>),
    List(Vec<PyValue<'a>>),
    /// A compiled regular expression, by its pattern.
    Pattern(String),
    Enum(EnumMember),
    /// A module, or a class or builtin whose `__name__` is this.
    Named(String),
    /// A function whose `__name__` is this; its body when the file shows a one-expression body.
    Func(String, Option<Callable<'a>>),
    /// A value with no id of its own (a dict, a set, an instance of a plain class).
    Opaque,
    /// What the file alone cannot tell; why.
    Unknown(String),
}

/// A function the evaluator can call: one positional parameter, one expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Callable<'a> {
    Expr {
        param: String,
        body: &'a Expr,
    },
    /// `str` or `repr`.
    Builtin(&'static str),
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumMember {
    pub class: String,
    pub name: String,
    pub kind: EnumKind,
    pub value: Box<PyValue<'static>>,
}

/// How `str()`/pytest show an enum member (Python 3.11+).
#[derive(Clone, Debug, PartialEq)]
pub enum EnumKind {
    /// `Enum`, `Flag`, `(int, Enum)`: `Class.member`.
    Plain,
    /// `IntEnum`, `IntFlag`: the value.
    IntLike,
    /// `StrEnum`, `(str, Enum)`: pytest escapes the member's text.
    StrMixin,
}

impl PyValue<'_> {
    fn unknown(why: impl Into<String>) -> Self {
        PyValue::Unknown(why.into())
    }

    /// Drop borrowed function bodies (enum values are stored without them).
    fn detach(&self) -> PyValue<'static> {
        match self {
            PyValue::None => PyValue::None,
            PyValue::Bool(b) => PyValue::Bool(*b),
            PyValue::Int(i) => PyValue::Int(*i),
            PyValue::Float(f) => PyValue::Float(*f),
            PyValue::Complex(a, b) => PyValue::Complex(*a, *b),
            PyValue::Str(s) => PyValue::Str(s.clone()),
            PyValue::Bytes(b) => PyValue::Bytes(b.clone()),
            PyValue::Tuple(v) => PyValue::Tuple(v.iter().map(PyValue::detach).collect()),
            PyValue::List(v) => PyValue::List(v.iter().map(PyValue::detach).collect()),
            PyValue::Pattern(p) => PyValue::Pattern(p.clone()),
            PyValue::Enum(e) => PyValue::Enum(e.clone()),
            PyValue::Named(n) => PyValue::Named(n.clone()),
            PyValue::Func(n, _) => PyValue::Func(n.clone(), None),
            PyValue::Opaque => PyValue::Opaque,
            PyValue::Unknown(w) => PyValue::Unknown(w.clone()),
        }
    }
}

/// `str(value)` where the file alone shows it.
pub fn py_str(value: &PyValue) -> Option<String> {
    Some(match value {
        PyValue::Str(s) => s.clone(),
        PyValue::Enum(e) => match (&e.kind, e.value.as_ref()) {
            (EnumKind::IntLike, PyValue::Int(i)) => i.to_string(),
            (EnumKind::IntLike, _) => return None,
            _ => format!("{}.{}", e.class, e.name),
        },
        other => py_repr(other)?,
    })
}

/// `repr(value)` for builtin values (ASCII strings only: Python keeps printable non-ASCII).
pub fn py_repr(value: &PyValue) -> Option<String> {
    Some(match value {
        PyValue::None => "None".into(),
        PyValue::Bool(b) => if *b { "True" } else { "False" }.into(),
        PyValue::Int(i) => i.to_string(),
        PyValue::Float(f) => ids::float_repr(*f),
        PyValue::Complex(a, b) => ids::complex_repr(*a, *b),
        PyValue::Str(s) => {
            if !s.is_ascii() {
                return None;
            }
            let quote = if s.contains('\'') && !s.contains('"') {
                '"'
            } else {
                '\''
            };
            let mut out = String::from(quote);
            for c in s.chars() {
                match c {
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if c == quote => {
                        out.push('\\');
                        out.push(c);
                    }
                    c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                        out.push_str(&format!("\\x{:02x}", c as u32))
                    }
                    c => out.push(c),
                }
            }
            out.push(quote);
            out
        }
        PyValue::Tuple(v) => {
            let parts: Option<Vec<String>> = v.iter().map(py_repr).collect();
            let parts = parts?;
            if parts.len() == 1 {
                format!("({},)", parts[0])
            } else {
                format!("({})", parts.join(", "))
            }
        }
        PyValue::List(v) => {
            let parts: Option<Vec<String>> = v.iter().map(py_repr).collect();
            format!("[{}]", parts?.join(", "))
        }
        PyValue::Enum(e) if e.kind == EnumKind::Plain => {
            format!("<{}.{}: {}>", e.class, e.name, py_repr(&e.value)?)
        }
        _ => return None,
    })
}

/// Where an expression is evaluated: the module, or a class body up to a statement.
#[derive(Clone, Copy)]
pub struct Place<'a> {
    pub class: Option<&'a [Stmt]>,
    /// Only class-body statements before this offset have run.
    pub before: TextSize,
}

impl Place<'_> {
    pub fn module() -> Self {
        Place {
            class: None,
            before: TextSize::new(u32::MAX),
        }
    }
}

pub struct Evaluator<'s, 'a> {
    pub scope: &'s ModuleScope<'a>,
    pub module: &'a [Stmt],
    /// `imported_module` by name: each answer scans the whole module, so it is computed once.
    pub imports: std::cell::RefCell<rustc_hash::FxHashMap<String, Option<String>>>,
}

type Env<'a> = Vec<(String, PyValue<'a>)>;

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

    fn eval_in(
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

    fn seq(
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

    fn name(&self, name: &str, place: Place<'a>, env: &Env<'a>, d: usize) -> PyValue<'a> {
        if let Some((_, v)) = env.iter().rev().find(|(n, _)| n == name) {
            return v.clone();
        }
        if let Some(body) = place.class {
            if let Some(v) = self.class_name(body, place.before, name, d) {
                return v;
            }
        }
        match self.scope.globals.get(name) {
            Some(Global::Constant { source, .. }) => {
                self.eval_in(source, Place::module(), &Vec::new(), d)
            }
            Some(Global::SolutionName { name: own }) => solution_name(own),
            Some(Global::Helper { .. }) => match self.module_def(name) {
                Some(stmt) => self.definition(stmt),
                None => PyValue::unknown(format!(
                    "`{name}` is defined in a way the extractor does not follow"
                )),
            },
            Some(Global::SolutionModule) => {
                PyValue::unknown(format!("`{name}` is the solution module"))
            }
            Some(Global::Import { module, .. }) => match self.imported_module(name) {
                Some(full) => PyValue::Named(full),
                None => PyValue::unknown(format!("`{name}` comes from `{module}`")),
            },
            Some(Global::Computed { why, .. }) => PyValue::unknown(format!("`{name}` {why}")),
            None if self.scope.star_import => {
                PyValue::unknown(format!("`{name}` may come from a star import"))
            }
            None if ruff_python_stdlib::builtins::is_python_builtin(name, 13, false) => {
                builtin(name)
            }
            None => PyValue::unknown(format!("`{name}` is not defined in the file")),
        }
    }

    /// A name bound in a class body before `before`: its last top-level binding there.
    fn class_name(
        &self,
        body: &'a [Stmt],
        before: TextSize,
        name: &str,
        d: usize,
    ) -> Option<PyValue<'a>> {
        let mut found: Option<&'a Stmt> = None;
        for stmt in body.iter().take_while(|s| s.range().start() < before) {
            if binds(stmt, name) {
                found = Some(stmt);
            }
        }
        let stmt = found?;
        Some(match stmt {
            Stmt::Assign(a) if matches!(a.targets.as_slice(), [Expr::Name(t)] if t.id.as_str() == name) =>
            {
                let place = Place {
                    class: Some(body),
                    before: stmt.range().start(),
                };
                self.eval_in(&a.value, place, &Vec::new(), d)
            }
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => self.definition(stmt),
            _ => PyValue::unknown(format!(
                "`{name}` is bound in the class body in a way the extractor does not follow"
            )),
        })
    }

    /// The module `import a.b as name` (or `import name`) binds: its `__name__`.
    fn imported_module(&self, name: &str) -> Option<String> {
        if let Some(known) = self.imports.borrow().get(name) {
            return known.clone();
        }
        let found = self.scan_imported_module(name);
        self.imports
            .borrow_mut()
            .insert(name.to_string(), found.clone());
        found
    }

    fn scan_imported_module(&self, name: &str) -> Option<String> {
        let mut found = None;
        for stmt in self.module {
            if let Stmt::Import(i) = stmt {
                for a in &i.names {
                    match &a.asname {
                        Some(asname) if asname.as_str() == name => found = Some(a.name.to_string()),
                        None if a.name.as_str().split('.').next() == Some(name) => {
                            found = Some(name.to_string())
                        }
                        _ => {}
                    }
                }
            } else if value_binds_other(stmt, name) {
                found = None;
            }
        }
        found
    }

    fn module_def(&self, name: &str) -> Option<&'a Stmt> {
        self.module.iter().rev().find(|s| match s {
            Stmt::FunctionDef(f) => f.name.as_str() == name,
            Stmt::ClassDef(c) => c.name.as_str() == name,
            _ => false,
        })
    }

    /// A `def` or `class` statement as a value.
    fn definition(&self, stmt: &'a Stmt) -> PyValue<'a> {
        match stmt {
            Stmt::FunctionDef(f) => {
                if !f.decorator_list.is_empty() {
                    return PyValue::unknown(format!("`{}` is decorated", f.name));
                }
                let callable = one_return(&f.body).and_then(|body| {
                    one_param(Some(&f.parameters)).map(|param| Callable::Expr { param, body })
                });
                PyValue::Func(f.name.to_string(), callable)
            }
            Stmt::ClassDef(c) => {
                if !c.decorator_list.is_empty()
                    && !c.decorator_list.iter().all(|d| is_dataclass(&d.expression))
                {
                    return PyValue::unknown(format!("`{}` is decorated", c.name));
                }
                PyValue::Named(c.name.to_string())
            }
            _ => PyValue::unknown("not a definition"),
        }
    }

    fn attribute(
        &self,
        a: &'a ast::ExprAttribute,
        expr: &'a Expr,
        place: Place<'a>,
        env: &Env<'a>,
        d: usize,
    ) -> PyValue<'a> {
        if let Some(own) = self.scope.solution_attr(expr) {
            return solution_name(&own);
        }
        let attr = a.attr.as_str();
        // A member of an enum class the file defines.
        if let Expr::Name(n) = a.value.as_ref() {
            let class = match place
                .class
                .and_then(|b| self.class_stmt(b, place.before, n.id.as_str()))
            {
                Some(c) => Some(c),
                None if env.iter().all(|(p, _)| p != n.id.as_str()) => {
                    match self.scope.globals.get(n.id.as_str()) {
                        Some(Global::Helper { .. }) => match self.module_def(n.id.as_str()) {
                            Some(Stmt::ClassDef(c)) => Some(c),
                            _ => None,
                        },
                        _ => None,
                    }
                }
                None => None,
            };
            if let Some(c) = class {
                if let Some(kind) = self.enum_kind(c, 0) {
                    return self.enum_member(c, kind, attr);
                }
            }
            if let Some(Global::Import { module, .. }) = self.scope.globals.get(n.id.as_str()) {
                if module == "math" && !env.iter().any(|(p, _)| p == n.id.as_str()) {
                    return match attr {
                        "pi" => PyValue::Float(std::f64::consts::PI),
                        "e" => PyValue::Float(std::f64::consts::E),
                        "tau" => PyValue::Float(std::f64::consts::TAU),
                        "inf" => PyValue::Float(f64::INFINITY),
                        "nan" => PyValue::Float(f64::NAN),
                        _ => PyValue::unknown(format!("`math.{attr}`")),
                    };
                }
            }
        }
        match (self.eval_in(&a.value, place, env, d), attr) {
            (PyValue::Named(n) | PyValue::Func(n, _), "__name__") => PyValue::Str(n),
            (PyValue::Enum(e), "name") => PyValue::Str(e.name.clone()),
            (PyValue::Enum(e), "value") => (*e.value).clone(),
            (PyValue::Unknown(w), _) => PyValue::Unknown(w),
            _ => PyValue::unknown(format!("the attribute `.{attr}` is computed")),
        }
    }

    fn class_stmt(
        &self,
        body: &'a [Stmt],
        before: TextSize,
        name: &str,
    ) -> Option<&'a ast::StmtClassDef> {
        let mut found = None;
        for stmt in body.iter().take_while(|s| s.range().start() < before) {
            if binds(stmt, name) {
                found = match stmt {
                    Stmt::ClassDef(c) => Some(c),
                    _ => None,
                };
            }
        }
        found
    }

    /// The kind of enum a file class is, if it is one the extractor can read.
    fn enum_kind(&self, c: &'a ast::StmtClassDef, depth: usize) -> Option<EnumKind> {
        if depth > 8 || !c.decorator_list.is_empty() {
            return None;
        }
        let args = c.arguments.as_deref()?;
        if !args.keywords.is_empty() {
            return None;
        }
        let mut enum_base = None;
        let mut mixin = None;
        for base in args.args.iter() {
            match self.enum_base(base) {
                Some(Ok(kind)) => enum_base = Some(kind),
                Some(Err(m)) => mixin = Some(m),
                None => {
                    // A file enum without members, subclassed.
                    let Expr::Name(n) = base else { return None };
                    let Some(Stmt::ClassDef(parent)) = self.module_def(n.id.as_str()) else {
                        return None;
                    };
                    enum_base = Some(self.enum_kind(parent, depth + 1)?);
                }
            }
        }
        let kind = match (enum_base?, mixin) {
            (k, None) => k,
            (EnumKind::Plain, Some("str")) => EnumKind::StrMixin,
            (EnumKind::Plain, Some("int")) => EnumKind::Plain,
            (k, Some(_)) if k != EnumKind::Plain => k,
            _ => return None,
        };
        // A custom `__str__`/`__format__`/`_generate_next_value_`, or members that are not simple.
        for stmt in &c.body {
            if let Stmt::FunctionDef(f) = stmt {
                if matches!(
                    f.name.as_str(),
                    "__str__" | "__repr__" | "_generate_next_value_" | "__new__" | "__init__"
                ) {
                    return None;
                }
            }
        }
        Some(kind)
    }

    /// `Ok(kind)` for an enum base class, `Err("str"|"int")` for a mixin; `None` otherwise.
    fn enum_base(&self, base: &Expr) -> Option<Result<EnumKind, &'static str>> {
        let path = self.import_path(base)?;
        Some(match path.as_str() {
            "enum.Enum" | "enum.Flag" => Ok(EnumKind::Plain),
            "enum.IntEnum" | "enum.IntFlag" => Ok(EnumKind::IntLike),
            "enum.StrEnum" => Ok(EnumKind::StrMixin),
            "builtins.str" => Err("str"),
            "builtins.int" => Err("int"),
            _ => return None,
        })
    }

    /// `enum.Enum` for `Enum` (after `from enum import Enum`) or `enum.Enum`; `builtins.str` for `str`.
    fn import_path(&self, expr: &Expr) -> Option<String> {
        match expr {
            Expr::Name(n) => {
                let name = n.id.as_str();
                if !self.scope.globals.contains_key(name) && matches!(name, "str" | "int") {
                    return Some(format!("builtins.{name}"));
                }
                self.module.iter().find_map(|s| match s {
                    Stmt::ImportFrom(i) if i.level == 0 && i.module.as_deref() == Some("enum") => i
                        .names
                        .iter()
                        .find(|a| a.asname.as_ref().unwrap_or(&a.name).as_str() == name)
                        .map(|a| format!("enum.{}", a.name)),
                    _ => None,
                })
            }
            Expr::Attribute(a) => {
                let Expr::Name(n) = a.value.as_ref() else {
                    return None;
                };
                let bound = self.module.iter().any(|s| match s {
                    Stmt::Import(i) => i.names.iter().any(|al| {
                        al.name.as_str() == "enum"
                            && al.asname.as_ref().unwrap_or(&al.name).as_str() == n.id.as_str()
                    }),
                    _ => false,
                });
                bound.then(|| format!("enum.{}", a.attr))
            }
            _ => None,
        }
    }

    fn enum_member(&self, c: &'a ast::StmtClassDef, kind: EnumKind, attr: &str) -> PyValue<'a> {
        let unknown = || PyValue::unknown(format!("`{}.{attr}` is not a plain member", c.name));
        let mut members: Vec<(String, PyValue<'static>)> = Vec::new();
        let is_flag = self.enum_is_flag(c);
        for stmt in &c.body {
            let (target, value) = match stmt {
                Stmt::Assign(a) => match a.targets.as_slice() {
                    [Expr::Name(t)] => (t.id.as_str(), a.value.as_ref()),
                    _ => continue,
                },
                Stmt::AnnAssign(a) => match (a.target.as_ref(), a.value.as_deref()) {
                    (Expr::Name(t), Some(v)) => (t.id.as_str(), v),
                    _ => continue,
                },
                _ => continue,
            };
            if target.starts_with('_') {
                continue;
            }
            let is_auto = matches!(value, Expr::Call(call) if call.arguments.is_empty() && matches!(call.func.as_ref(), Expr::Name(n) if self.import_path(&Expr::Name(n.clone())).as_deref() == Some("enum.auto")));
            let v = if is_auto {
                match (&kind, members.last().map(|(_, v)| v)) {
                    (EnumKind::StrMixin, _) => PyValue::Str(target.to_lowercase()),
                    (_, None) => PyValue::Int(1),
                    (_, Some(PyValue::Int(i))) if is_flag => {
                        PyValue::Int(1i128 << (128 - i.leading_zeros()).min(120))
                    }
                    (_, Some(PyValue::Int(i))) => PyValue::Int(i + 1),
                    _ => return unknown(),
                }
            } else {
                let v = self.eval(value, Place::module()).detach();
                match (&kind, &v) {
                    (_, PyValue::Unknown(_) | PyValue::Func(..) | PyValue::Opaque) => {
                        return unknown()
                    }
                    (EnumKind::IntLike, PyValue::Int(_))
                    | (EnumKind::StrMixin, PyValue::Str(_))
                    | (EnumKind::Plain, _) => v,
                    _ => return unknown(),
                }
            };
            // A member with an earlier member's value is an alias of it.
            let name = members
                .iter()
                .find(|(_, earlier)| earlier == &v)
                .map(|(n, _)| n.clone())
                .unwrap_or_else(|| target.to_string());
            if target == attr {
                return PyValue::Enum(EnumMember {
                    class: c.name.to_string(),
                    name,
                    kind,
                    value: Box::new(v),
                });
            }
            members.push((target.to_string(), v));
        }
        unknown()
    }

    fn enum_is_flag(&self, c: &ast::StmtClassDef) -> bool {
        c.arguments.as_deref().is_some_and(|a| {
            a.args.iter().any(|b| {
                matches!(
                    self.import_path(b).as_deref(),
                    Some("enum.Flag" | "enum.IntFlag")
                )
            })
        })
    }

    fn call_expr(
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

fn value_binds_other(stmt: &Stmt, name: &str) -> bool {
    !matches!(stmt, Stmt::Import(_)) && binds(stmt, name)
}

fn is_dataclass(expr: &Expr) -> bool {
    let expr = match expr {
        Expr::Call(c) => c.func.as_ref(),
        e => e,
    };
    match expr {
        Expr::Name(n) => n.id.as_str() == "dataclass",
        Expr::Attribute(a) => {
            a.attr.as_str() == "dataclass"
                && matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == "dataclasses")
        }
        _ => false,
    }
}

/// A solution name as a value: a function or class, named by its own name. A name written like a
/// constant (`MAX_SIZE`) may be any value: its id cannot be known from the test file.
fn solution_name<'a>(own: &str) -> PyValue<'a> {
    let constant_like =
        own.chars().any(|c| c.is_ascii_alphabetic()) && !own.chars().any(|c| c.is_lowercase());
    if constant_like {
        PyValue::unknown(format!(
            "`{own}` is a value of the solution, which the test file does not show"
        ))
    } else {
        PyValue::Named(own.to_string())
    }
}

fn builtin<'a>(name: &str) -> PyValue<'a> {
    match name {
        "Ellipsis" | "NotImplemented" => PyValue::Opaque,
        "__debug__" => PyValue::Bool(true),
        n if n.starts_with("__") => PyValue::unknown(format!("`{n}`")),
        n => PyValue::Named(n.to_string()),
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

/// An int converted to float where the conversion is exact (CPython rounds the rest the same way,
/// but only small ints are taken).
fn exact_float(i: i128) -> Option<f64> {
    (i.unsigned_abs() <= 1 << 53).then_some(i as f64)
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

fn truth(v: &PyValue) -> Option<bool> {
    Some(match v {
        PyValue::None => false,
        PyValue::Bool(b) => *b,
        PyValue::Int(i) => *i != 0,
        PyValue::Float(f) => *f != 0.0,
        PyValue::Str(s) => !s.is_empty(),
        PyValue::Tuple(t) | PyValue::List(t) => !t.is_empty(),
        _ => return None,
    })
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

fn one_param(params: Option<&ast::Parameters>) -> Option<String> {
    let p = params?;
    if !p.kwonlyargs.iter().all(|a| a.default.is_some()) || p.vararg.is_some() || p.kwarg.is_some()
    {
        return None;
    }
    let positional: Vec<_> = p.posonlyargs.iter().chain(p.args.iter()).collect();
    let (first, rest) = positional.split_first()?;
    if first.default.is_some() || !rest.iter().all(|a| a.default.is_some()) {
        return None;
    }
    Some(first.parameter.name.to_string())
}

fn one_return(body: &[Stmt]) -> Option<&Expr> {
    let body = match body.first() {
        Some(Stmt::Expr(e)) if matches!(e.value.as_ref(), Expr::StringLiteral(_)) => &body[1..],
        _ => body,
    };
    match body {
        [Stmt::Return(r)] => r.value.as_deref(),
        _ => None,
    }
}

/// Whether a statement binds `name` in the scope it runs in.
pub fn binds(stmt: &Stmt, name: &str) -> bool {
    struct Finder<'n> {
        name: &'n str,
        found: bool,
    }
    impl<'a> Visitor<'a> for Finder<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(f) => {
                    self.found |= f.name.as_str() == self.name;
                    for d in &f.decorator_list {
                        self.visit_expr(&d.expression);
                    }
                }
                Stmt::ClassDef(c) => {
                    self.found |= c.name.as_str() == self.name;
                    for d in &c.decorator_list {
                        self.visit_expr(&d.expression);
                    }
                }
                Stmt::Import(i) => {
                    for a in &i.names {
                        let bound = a.asname.as_ref().map(|n| n.as_str()).unwrap_or_else(|| {
                            a.name.as_str().split('.').next().unwrap_or_default()
                        });
                        self.found |= bound == self.name;
                    }
                }
                Stmt::ImportFrom(i) => {
                    for a in &i.names {
                        self.found |= a.asname.as_ref().unwrap_or(&a.name).as_str() == self.name
                            || a.name.as_str() == "*";
                    }
                }
                Stmt::Global(_) | Stmt::Nonlocal(_) => {}
                _ => visitor::walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a Expr) {
            match expr {
                Expr::Name(n) if n.ctx.is_store() || n.ctx.is_del() => {
                    self.found |= n.id.as_str() == self.name;
                }
                Expr::Named(n) => {
                    self.visit_expr(&n.target);
                    self.visit_expr(&n.value);
                }
                Expr::Lambda(_)
                | Expr::ListComp(_)
                | Expr::SetComp(_)
                | Expr::DictComp(_)
                | Expr::Generator(_) => {}
                _ => visitor::walk_expr(self, expr),
            }
        }
    }
    let mut f = Finder { name, found: false };
    f.visit_stmt(stmt);
    f.found
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

fn subscript<'a>(value: PyValue<'a>, index: PyValue<'a>) -> PyValue<'a> {
    let PyValue::Int(i) = index else {
        return PyValue::unknown("a subscript the extractor does not evaluate");
    };
    let pick = |len: usize| -> Option<usize> {
        let len = len as i128;
        let j = if i < 0 { i + len } else { i };
        (0..len).contains(&j).then_some(j as usize)
    };
    match value {
        PyValue::Tuple(v) | PyValue::List(v) => match pick(v.len()) {
            Some(j) => v[j].clone(),
            None => PyValue::unknown("an index out of range"),
        },
        PyValue::Str(s) => {
            let chars: Vec<char> = s.chars().collect();
            match pick(chars.len()) {
                Some(j) => PyValue::Str(chars[j].to_string()),
                None => PyValue::unknown("an index out of range"),
            }
        }
        PyValue::Unknown(w) => PyValue::Unknown(w),
        _ => PyValue::unknown("a subscript the extractor does not evaluate"),
    }
}

fn unary<'a>(op: ast::UnaryOp, v: PyValue<'a>) -> PyValue<'a> {
    use ast::UnaryOp::*;
    match (op, v) {
        (_, PyValue::Unknown(w)) => PyValue::Unknown(w),
        (USub, PyValue::Int(i)) => i
            .checked_neg()
            .map_or_else(|| PyValue::unknown("overflow"), PyValue::Int),
        (USub, PyValue::Bool(b)) => PyValue::Int(-i128::from(b)),
        (USub, PyValue::Float(f)) => PyValue::Float(-f),
        (USub, PyValue::Complex(a, b)) => PyValue::Complex(-a, -b),
        (UAdd, PyValue::Int(i)) => PyValue::Int(i),
        (UAdd, PyValue::Bool(b)) => PyValue::Int(i128::from(b)),
        (UAdd, PyValue::Float(f)) => PyValue::Float(f),
        (UAdd, PyValue::Complex(a, b)) => PyValue::Complex(a, b),
        (Invert, PyValue::Int(i)) => PyValue::Int(!i),
        (Invert, PyValue::Bool(b)) => PyValue::Int(!i128::from(b)),
        (Not, v) => truth(&v).map_or_else(
            || PyValue::unknown("`not` of a computed value"),
            |t| PyValue::Bool(!t),
        ),
        _ => PyValue::unknown("an operator on a value the extractor does not evaluate"),
    }
}

/// Python's binary operators on the values the extractor evaluates; `Unknown` for the rest (and for
/// float `//`, `%`, `**`, whose results depend on the platform's libm).
fn binary<'a>(op: ast::Operator, l: PyValue<'a>, r: PyValue<'a>) -> PyValue<'a> {
    match (&l, &r) {
        (PyValue::Unknown(w), _) | (_, PyValue::Unknown(w)) => return PyValue::Unknown(w.clone()),
        _ => {}
    }
    if let (Some(a), Some(b)) = (as_int(&l), as_int(&r)) {
        return int_binary(op, a, b);
    }
    if let Some(v) = sequence_binary(op, &l, &r) {
        return v;
    }
    // Floats: IEEE arithmetic, the same as CPython's for + - * /.
    if let (Some(a), Some(b)) = (as_float(&l), as_float(&r)) {
        return match op {
            ast::Operator::Add => PyValue::Float(a + b),
            ast::Operator::Sub => PyValue::Float(a - b),
            ast::Operator::Mult => PyValue::Float(a * b),
            ast::Operator::Div if b != 0.0 => PyValue::Float(a / b),
            _ => PyValue::unknown("a float operation whose result the extractor does not compute"),
        };
    }
    complex_binary(op, &l, &r)
}

/// An int (or bool) as Python's int arithmetic sees it.
fn as_int(v: &PyValue) -> Option<i128> {
    match v {
        PyValue::Int(i) => Some(*i),
        PyValue::Bool(b) => Some(i128::from(*b)),
        _ => None,
    }
}

/// A real number as a float, when the conversion is exact.
fn as_float(v: &PyValue) -> Option<f64> {
    match v {
        PyValue::Float(f) => Some(*f),
        other => as_int(other).and_then(exact_float),
    }
}

fn int_binary<'a>(op: ast::Operator, a: i128, b: i128) -> PyValue<'a> {
    use ast::Operator::*;
    let overflow = || PyValue::unknown("an int too large for the extractor");
    match op {
        Add => a.checked_add(b).map_or_else(overflow, PyValue::Int),
        Sub => a.checked_sub(b).map_or_else(overflow, PyValue::Int),
        Mult => a.checked_mul(b).map_or_else(overflow, PyValue::Int),
        FloorDiv if b != 0 => {
            PyValue::Int(a.div_euclid(b) - i128::from(b < 0 && a.rem_euclid(b) != 0))
        }
        Mod if b != 0 => {
            let m = a.rem_euclid(b);
            PyValue::Int(if b < 0 && m != 0 { m + b } else { m })
        }
        Pow if (0..=127).contains(&b) => {
            a.checked_pow(b as u32).map_or_else(overflow, PyValue::Int)
        }
        Div if b != 0 => match (exact_float(a), exact_float(b)) {
            (Some(x), Some(y)) => PyValue::Float(x / y),
            _ => overflow(),
        },
        LShift if (0..120).contains(&b) => a
            .checked_mul(1i128 << b)
            .map_or_else(overflow, PyValue::Int),
        RShift if b >= 0 => PyValue::Int(a >> b.min(127)),
        BitAnd => PyValue::Int(a & b),
        BitOr => PyValue::Int(a | b),
        BitXor => PyValue::Int(a ^ b),
        _ => PyValue::unknown("an int operation that raises or is not followed"),
    }
}

/// `+` of two strings, bytes, tuples or lists, and `*` of one of them by an int.
fn sequence_binary<'a>(op: ast::Operator, l: &PyValue<'a>, r: &PyValue<'a>) -> Option<PyValue<'a>> {
    use ast::Operator::*;
    match (op, l, r) {
        (Add, PyValue::Str(a), PyValue::Str(b)) if a.len() + b.len() <= MAX_LEN => {
            Some(PyValue::Str(format!("{a}{b}")))
        }
        (Add, PyValue::Bytes(a), PyValue::Bytes(b)) if a.len() + b.len() <= MAX_LEN => {
            Some(PyValue::Bytes([a.as_slice(), b.as_slice()].concat()))
        }
        (Add, PyValue::Tuple(a), PyValue::Tuple(b)) => {
            Some(PyValue::Tuple([a.clone(), b.clone()].concat()))
        }
        (Add, PyValue::List(a), PyValue::List(b)) => {
            Some(PyValue::List([a.clone(), b.clone()].concat()))
        }
        (Mult, s, n) | (Mult, n, s)
            if as_int(n).is_some()
                && matches!(
                    s,
                    PyValue::Str(_) | PyValue::Bytes(_) | PyValue::Tuple(_) | PyValue::List(_)
                ) =>
        {
            Some(repeat(s, as_int(n).unwrap_or(0).max(0) as usize))
        }
        _ => None,
    }
}

/// `s * times` for a string, bytes, tuple or list.
fn repeat<'a>(s: &PyValue<'a>, times: usize) -> PyValue<'a> {
    let len = match s {
        PyValue::Str(x) => x.len(),
        PyValue::Bytes(x) => x.len(),
        PyValue::Tuple(x) | PyValue::List(x) => x.len(),
        _ => 0,
    };
    if len.saturating_mul(times) > MAX_LEN {
        return PyValue::unknown("a value too long for the extractor");
    }
    match s {
        PyValue::Str(x) => PyValue::Str(x.repeat(times)),
        PyValue::Bytes(x) => PyValue::Bytes(x.repeat(times)),
        PyValue::Tuple(x) => {
            PyValue::Tuple(x.iter().cloned().cycle().take(x.len() * times).collect())
        }
        PyValue::List(x) => {
            PyValue::List(x.iter().cloned().cycle().take(x.len() * times).collect())
        }
        _ => PyValue::Opaque,
    }
}

/// `+` and `-` with a complex operand. A real and a complex: Python 3.14 no longer turns the real
/// into `complex(x, 0)` first, which changes signed zeros; only results both versions agree on are
/// taken.
fn complex_binary<'a>(op: ast::Operator, l: &PyValue<'a>, r: &PyValue<'a>) -> PyValue<'a> {
    use ast::Operator::*;
    let complex = |v: &PyValue| match v {
        PyValue::Complex(a, b) => Some((*a, *b)),
        _ => None,
    };
    let (lc, rc) = (complex(l), complex(r));
    let (lf, rf) = (as_float(l), as_float(r));
    let result = match (op, lc, rc, lf, rf) {
        (Add, Some((a, b)), Some((c, d)), _, _) => Some(((a + c, b + d), (a + c, b + d))),
        (Sub, Some((a, b)), Some((c, d)), _, _) => Some(((a - c, b - d), (a - c, b - d))),
        (Add, None, Some((c, d)), Some(x), _) => Some(((x + c, 0.0 + d), (x + c, d))),
        (Sub, None, Some((c, d)), Some(x), _) => Some(((x - c, 0.0 - d), (x - c, -d))),
        (Add, Some((a, b)), None, _, Some(y)) => Some(((a + y, b + 0.0), (a + y, b))),
        (Sub, Some((a, b)), None, _, Some(y)) => Some(((a - y, b - 0.0), (a - y, b))),
        _ => None,
    };
    match result {
        Some((old, new)) if ids::complex_repr(old.0, old.1) == ids::complex_repr(new.0, new.1) => {
            PyValue::Complex(new.0, new.1)
        }
        Some(_) => {
            PyValue::unknown("a complex number whose signed zero differs between Python versions")
        }
        None => PyValue::unknown("an operation the extractor does not evaluate"),
    }
}
