//! `pickle` on literal values. pickle is not spelled out in general (`names::imports`): it finds a
//! class, a function or a sentinel by name in the module that made it, which for the test file's
//! objects is the test module, whose names a check binds as its own locals. A literal value (a
//! string, a number, bytes, `None`, and tuples, lists, sets and dicts of them) is pickled by value,
//! with no name looked up anywhere: `loads(dumps("x"))` makes a new equal object the same way in
//! any namespace. A file whose every use of `pickle.dumps`/`pickle.loads` is
//! `dumps(<literal>[, protocol=<int>])` or `loads(dumps(…))` of that form has them spelled out.

use ruff_python_ast::visitor::{walk_expr, walk_stmt, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};

use rustc_hash::FxHashSet as HashSet;

/// Whether every use in the file of what its module-level `import pickle` / `from pickle import
/// dumps, loads` binds is a call on a literal value (see the module's docs). `false` when the file
/// binds pickle's names in any other way (a function's own import, `from pickle import *`).
pub(super) fn on_literals_only(body: &[Stmt]) -> bool {
    let mut names = Names::default();
    for stmt in body {
        match stmt {
            Stmt::Import(i) => {
                for a in &i.names {
                    if a.name.as_str() == "pickle" {
                        let bound = a.asname.as_ref().unwrap_or(&a.name).to_string();
                        names.modules.insert(bound);
                    }
                }
            }
            Stmt::ImportFrom(i) if i.level == 0 && i.module.as_deref() == Some("pickle") => {
                for a in &i.names {
                    let bound = a.asname.as_ref().unwrap_or(&a.name).to_string();
                    match a.name.as_str() {
                        "dumps" => names.dumps.insert(bound),
                        "loads" => names.loads.insert(bound),
                        _ => return false,
                    };
                }
            }
            _ => {}
        }
    }
    if names.is_empty() {
        return false;
    }
    let mut check = Check {
        names: &names,
        ok: true,
    };
    for stmt in body {
        check.visit_stmt(stmt);
    }
    check.ok
}

#[derive(Default)]
struct Names {
    /// Names bound to the `pickle` module.
    modules: HashSet<String>,
    dumps: HashSet<String>,
    loads: HashSet<String>,
}

impl Names {
    fn is_empty(&self) -> bool {
        self.modules.is_empty() && self.dumps.is_empty() && self.loads.is_empty()
    }

    fn all(&self) -> impl Iterator<Item = &String> {
        self.modules
            .iter()
            .chain(self.dumps.iter())
            .chain(self.loads.iter())
    }

    /// `"dumps"` or `"loads"` when `func` names one of them.
    fn function(&self, func: &Expr) -> Option<&'static str> {
        match func {
            Expr::Name(n) if self.dumps.contains(n.id.as_str()) => Some("dumps"),
            Expr::Name(n) if self.loads.contains(n.id.as_str()) => Some("loads"),
            Expr::Attribute(a) => match a.value.as_ref() {
                Expr::Name(m) if self.modules.contains(m.id.as_str()) => match a.attr.as_str() {
                    "dumps" => Some("dumps"),
                    "loads" => Some("loads"),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// `dumps(<literal>[, protocol=<int>])`, or `loads` of such a call.
    fn safe_call(&self, e: &Expr) -> bool {
        let Expr::Call(call) = e else {
            return false;
        };
        let [arg] = &*call.arguments.args else {
            return false;
        };
        match self.function(&call.func) {
            Some("dumps") => {
                crate::names::is_literal_value(arg, &|_| false)
                    && call.arguments.keywords.iter().all(|k| {
                        k.arg.as_ref().is_some_and(|a| a.as_str() == "protocol")
                            && matches!(k.value, Expr::NumberLiteral(_))
                    })
            }
            Some("loads") => call.arguments.keywords.is_empty() && self.safe_call(arg),
            _ => false,
        }
    }
}

/// Finds a use of pickle's names that is not a safe call, or a binding of one of them elsewhere.
struct Check<'n> {
    names: &'n Names,
    ok: bool,
}

impl<'a> Visitor<'a> for Check<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if !self.ok {
            return;
        }
        // A binding of one of the names other than the module-level import (a function's own
        // import, a parameter, a `def` of that name) is another meaning of it: give up.
        let rebinds = match stmt {
            Stmt::FunctionDef(f) => {
                self.binds(f.name.as_str())
                    || f.parameters.iter().any(|p| self.binds(p.name().as_str()))
            }
            Stmt::ClassDef(c) => self.binds(c.name.as_str()),
            Stmt::Global(_) | Stmt::Nonlocal(_) => true,
            _ => false,
        };
        if rebinds {
            self.ok = false;
            return;
        }
        walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, e: &'a Expr) {
        if !self.ok {
            return;
        }
        if self
            .names
            .function(match e {
                Expr::Call(c) => &c.func,
                _ => e,
            })
            .is_some()
            && matches!(e, Expr::Call(_))
        {
            if !self.names.safe_call(e) {
                self.ok = false;
            }
            return;
        }
        match e {
            Expr::Name(n) if self.binds(n.id.as_str()) => self.ok = false,
            Expr::Lambda(l)
                if l.parameters
                    .as_deref()
                    .is_some_and(|p| p.iter().any(|p| self.binds(p.name().as_str()))) =>
            {
                self.ok = false
            }
            _ => walk_expr(self, e),
        }
    }

    fn visit_alias(&mut self, _: &'a ast::Alias) {}
}

impl Check<'_> {
    fn binds(&self, name: &str) -> bool {
        self.names.all().any(|n| n == name)
    }
}
