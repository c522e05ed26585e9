//! What the file changes after binding it: names changed or declared `global` anywhere, and the
//! statements that change a solution module (or process-wide state) all tests share.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::names;
use crate::walk::{for_each_stmt, Scope};

use super::walk::{dotted_name, BoundNames};
use super::Global;

/// Module-level names the file changes anywhere after binding them: method calls on them, item or
/// attribute stores, augmented assignment, `del`, `global`. Maps name → the first statement seen.
pub(super) fn changed_names(body: &[Stmt]) -> HashMap<String, TextRange> {
    changed_names_with(body, false)
}

/// The names `changed_names` finds changed other than by calling their methods (which cannot change
/// an immutable object: a string, a tuple, a compiled pattern).
pub(super) fn changed_other_than_by_methods(body: &[Stmt]) -> HashSet<String> {
    changed_names_with(body, true).into_keys().collect()
}

fn changed_names_with(body: &[Stmt], skip_method_calls: bool) -> HashMap<String, TextRange> {
    let mut finder = ChangedNames {
        skip_method_calls,
        ..ChangedNames::default()
    };
    for stmt in body {
        finder.visit_stmt(stmt);
    }
    finder.found
}

/// What `changed_names` finds, statement by statement.
#[derive(Default)]
struct ChangedNames {
    found: HashMap<String, TextRange>,
    pub(crate) current: TextRange,
    skip_method_calls: bool,
}

impl ChangedNames {
    fn mark(&mut self, expr: &Expr) {
        if let Some(root) = names::root_name(expr) {
            self.found.entry(root.to_string()).or_insert(self.current);
        }
    }
}

impl<'a> Visitor<'a> for ChangedNames {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        self.current = stmt.range();
        match stmt {
            Stmt::AugAssign(a) => self.mark(&a.target),
            Stmt::Delete(d) => d.targets.iter().for_each(|t| self.mark(t)),
            Stmt::Global(g) => {
                for n in &g.names {
                    self.found.entry(n.to_string()).or_insert(g.range);
                }
            }
            Stmt::Assign(a) => {
                for t in &a.targets {
                    if matches!(t, Expr::Attribute(_) | Expr::Subscript(_)) {
                        self.mark(t);
                    }
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(call) = expr {
            if let Expr::Attribute(a) = call.func.as_ref() {
                if !self.skip_method_calls {
                    self.mark(&a.value);
                }
            }
        }
        visitor::walk_expr(self, expr);
    }
}

/// Module-level names a statement changes (`changed_names`), leaving out, inside a function, the
/// function's own locals (its parameters and what it binds) unless it declares them `global`.
pub(super) fn changed_outside_locals(stmt: &Stmt) -> Vec<String> {
    changed_outside_locals_with(stmt, false)
}

/// `changed_outside_locals`, with `skip_method_calls`: not counting calls of the names' methods.
pub(super) fn changed_outside_locals_with(stmt: &Stmt, skip_method_calls: bool) -> Vec<String> {
    match stmt {
        Stmt::FunctionDef(f) => {
            let mut bound = BoundNames::default();
            for s in &f.body {
                bound.visit_stmt(s);
            }
            let mut globals: HashSet<String> = HashSet::default();
            for s in &f.body {
                if let Stmt::Global(g) = s {
                    globals.extend(g.names.iter().map(|n| n.to_string()));
                }
            }
            let locals: HashSet<String> = bound
                .names
                .into_iter()
                .chain(f.parameters.iter().map(|p| p.name().to_string()))
                .filter(|n| !globals.contains(n))
                .collect();
            let mut out: Vec<String> = changed_names_with(&f.body, skip_method_calls)
                .into_keys()
                .filter(|n| !locals.contains(n))
                .collect();
            // Decorators and defaults run at module level.
            for d in &f.decorator_list {
                out.extend(changed_in_expr(&d.expression, skip_method_calls));
            }
            for p in f.parameters.iter() {
                if let Some(default) = p.default() {
                    out.extend(changed_in_expr(default, skip_method_calls));
                }
            }
            out
        }
        Stmt::ClassDef(c) => {
            let mut out = Vec::new();
            for d in &c.decorator_list {
                out.extend(changed_in_expr(&d.expression, skip_method_calls));
            }
            for s in &c.body {
                out.extend(changed_outside_locals_with(s, skip_method_calls));
            }
            out
        }
        other => changed_names_with(std::slice::from_ref(other), skip_method_calls)
            .into_keys()
            .collect(),
    }
}

/// `changed_names` of one expression (as an expression statement of it would give).
fn changed_in_expr(expr: &Expr, skip_method_calls: bool) -> Vec<String> {
    let mut finder = ChangedNames {
        current: expr.range(),
        skip_method_calls,
        ..Default::default()
    };
    finder.visit_expr(expr);
    finder.found.into_keys().collect()
}

pub(super) fn global_declared(body: &[Stmt]) -> Vec<(String, TextRange)> {
    let mut out = Vec::new();
    for_each_stmt(body, Scope::All, |stmt| {
        if let Stmt::Global(g) = stmt {
            out.extend(g.names.iter().map(|n| (n.to_string(), g.range)));
        }
    });
    out
}

/// Standard-library calls that change process-wide state a solution may read.
const GLOBAL_STATE_CALLS: &[&str] = &[
    "random.seed",
    "random.setstate",
    "numpy.random.seed",
    "os.putenv",
    "os.unsetenv",
    "os.chdir",
    "os.environ.update",
    "os.environ.setdefault",
    "os.environ.pop",
    "os.environ.clear",
    "sys.setrecursionlimit",
    "decimal.setcontext",
    "locale.setlocale",
    "time.tzset",
    "socket.setdefaulttimeout",
];

/// Statements anywhere in the file that change a solution module shared by all tests (one bound at
/// module level: `import solution`, `sol = _load_solution()`): attribute or item stores on it,
/// `del`, `setattr`/`delattr` on it. A function's own local of the same name does not count.
pub(super) fn shared_solution_changes(
    body: &[Stmt],
    globals: &HashMap<String, Global>,
) -> Vec<TextRange> {
    let mut finder = SharedChanges {
        globals,
        locals: HashSet::default(),
        current: TextRange::default(),
        found: Vec::new(),
    };
    visitor::walk_body(&mut finder, body);
    finder.found
}

/// The walk of `shared_solution_changes`: the statements found so far, in order.
struct SharedChanges<'g, 'a> {
    globals: &'g HashMap<String, Global<'a>>,
    /// The locals of the function being walked (they shadow module-level names).
    locals: HashSet<String>,
    pub(crate) current: TextRange,
    found: Vec<TextRange>,
}

impl SharedChanges<'_, '_> {
    /// `random.seed` for `random.seed`, `seed` (from `from random import seed`), `rnd.seed`
    /// (`import random as rnd`): the dotted path through the file's imports.
    fn stdlib_path(&self, func: &Expr) -> Option<String> {
        let dotted = dotted_name(func)?;
        let first = dotted.split('.').next()?;
        match self.globals.get(first) {
            Some(Global::Import { module, .. }) if !self.locals.contains(first) => {
                Some(format!("{module}{}", &dotted[first.len()..]))
            }
            _ => None,
        }
    }

    fn shared(&self, expr: &Expr) -> bool {
        names::root_name(expr).is_some_and(|r| {
            !self.locals.contains(r) && matches!(self.globals.get(r), Some(Global::SolutionModule))
        })
    }

    fn record(&mut self) {
        if self.found.last() != Some(&self.current) {
            self.found.push(self.current);
        }
    }

    /// A function body, with its parameters and what it binds as locals.
    fn function(&mut self, f: &ast::StmtFunctionDef) {
        let mut bound = BoundNames::default();
        for s in &f.body {
            bound.visit_stmt(s);
        }
        let saved = std::mem::replace(&mut self.locals, bound.names.into_iter().collect());
        self.locals
            .extend(f.parameters.iter().map(|p| p.name().to_string()));
        visitor::walk_body(self, &f.body);
        self.locals = saved;
    }

    /// An attribute or item store (or `del`) on the shared solution module.
    fn stores_into_shared(&self, stmt: &Stmt) -> bool {
        let targets: Vec<&Expr> = match stmt {
            Stmt::Assign(a) => a.targets.iter().collect(),
            Stmt::AugAssign(a) => vec![&a.target],
            Stmt::AnnAssign(a) => vec![&a.target],
            Stmt::Delete(d) => d.targets.iter().collect(),
            _ => Vec::new(),
        };
        targets
            .iter()
            .any(|t| matches!(t, Expr::Attribute(_) | Expr::Subscript(_)) && self.shared(t))
    }
}

impl<'a> Visitor<'a> for SharedChanges<'_, '_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if let Stmt::FunctionDef(f) = stmt {
            self.function(f);
            return;
        }
        self.current = stmt.range();
        if self.stores_into_shared(stmt) {
            self.record();
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let Expr::Call(call) = expr {
            if matches!(call.func.as_ref(), Expr::Name(n) if matches!(n.id.as_str(), "setattr" | "delattr"))
                && call.arguments.args.first().is_some_and(|a| self.shared(a))
            {
                self.record();
            }
            // Process-wide state the solution may read (the RNG, the environment, …): a test
            // that changes it changes what every later test sees.
            if self
                .stdlib_path(&call.func)
                .is_some_and(|p| GLOBAL_STATE_CALLS.contains(&p.as_str()))
            {
                self.record();
            }
        }
        visitor::walk_expr(self, expr);
    }
}
