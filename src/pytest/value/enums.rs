//! Attributes: `__name__`, `math` constants, and members of the file's enum classes (their kind
//! and values as Python 3.11+ shows them, `auto()` included).

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextSize};

use crate::module::Global;

use super::names::solution_name;
use super::{binds, EnumKind, EnumMember, Env, Evaluator, Place, PyValue};

impl<'s, 'a> Evaluator<'s, 'a> {
    pub(super) fn attribute(
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
}
