//! Names: a comprehension variable, a class-body binding before the statement, the module's
//! constants, functions and classes, imports, the solution's names, builtins; and [`binds`], whether
//! a statement binds a name.

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextSize};

use crate::module::Global;

use super::{Callable, Env, Evaluator, Place, PyValue};

impl<'s, 'a> Evaluator<'s, 'a> {
    pub(super) fn name(
        &self,
        name: &str,
        place: Place<'a>,
        env: &Env<'a>,
        d: usize,
    ) -> PyValue<'a> {
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

    pub(super) fn module_def(&self, name: &str) -> Option<&'a Stmt> {
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
}

fn value_binds_other(stmt: &Stmt, name: &str) -> bool {
    !matches!(stmt, Stmt::Import(_)) && binds(stmt, name)
}

pub(super) fn is_dataclass(expr: &Expr) -> bool {
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

/// A solution name as a value: whatever the candidate binds there. pytest names a case after the
/// object it gets (a function's or class's own `__name__`, which a candidate may set by an alias,
/// `functools.partial` or a class made elsewhere; a constant's value), so its id cannot be known
/// from the test file, whether the name is spelled like a function, a class or a constant.
pub(super) fn solution_name<'a>(own: &str) -> PyValue<'a> {
    PyValue::unknown(format!(
        "`{own}` is a value of the solution, which the test file does not show (pytest names the case after the candidate's object, such as its `__name__`)"
    ))
}

fn builtin<'a>(name: &str) -> PyValue<'a> {
    match name {
        "Ellipsis" | "NotImplemented" => PyValue::Opaque,
        "__debug__" => PyValue::Bool(true),
        n if n.starts_with("__") => PyValue::unknown(format!("`{n}`")),
        n => PyValue::Named(n.to_string()),
    }
}

pub(super) fn one_param(params: Option<&ast::Parameters>) -> Option<String> {
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
    // Its own visitor, not `crate::walk`: a boundary per kind of node (a `def`'s decorators but
    // not its body, walrus targets but not comprehensions or lambdas).
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
