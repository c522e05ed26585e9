//! Local aliases of the solution (and of standard-library imports) a test binds, and the loader
//! calls it makes.

use std::rc::Rc;

use rustc_hash::FxHashMap as HashMap;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};
use ruff_text_size::Ranged;

use super::super::Ctx;
use super::{module_replacement, shadows_import};
use crate::module::BoundNames;
use crate::names::{self, Replacement};
use crate::walk::{any_expr, any_stmt, for_each_expr, Scope};

/// Local aliases of the solution: `sol = _load_solution()`, `f = sol.f`, `from solution import f`.
pub type Aliases = HashMap<String, Replacement>;

/// Local aliases of the solution, bound once each in the test: `sol = _load_solution()`,
/// `f = sol.f`, `from solution import f`.
pub fn local_aliases(ctx: &Ctx, f: &StmtFunctionDef) -> Aliases {
    let mut bound = BoundNames::default();
    for stmt in &f.body {
        bound.visit_stmt(stmt);
    }
    let mut scan = AliasScan {
        ctx,
        f,
        bound: bound.names,
        aliases: Aliases::default(),
    };
    for stmt in &f.body {
        match stmt {
            Stmt::Assign(a) => {
                if let [Expr::Name(t)] = a.targets.as_slice() {
                    scan.assignment(t.id.as_str(), &a.value);
                }
            }
            Stmt::Import(i) => scan.import(stmt, i),
            Stmt::ImportFrom(i) if i.level == 0 && !is_solution_import(ctx, i) => {
                scan.stdlib_from_import(stmt, i)
            }
            // `from solution import x` in the test binds a local there (`items`), replayed.
            _ => {}
        }
    }
    scan.aliases
}

/// The test's statements read in order for aliases of the solution and of standard-library
/// imports; only a name the test binds exactly once can be an alias.
struct AliasScan<'c, 's, 'a, 'f> {
    ctx: &'c Ctx<'s, 'a>,
    f: &'f StmtFunctionDef,
    /// Every binding of a name in the test (a name bound twice appears twice).
    bound: Vec<String>,
    aliases: Aliases,
}

impl AliasScan<'_, '_, '_, '_> {
    fn binds_once(&self, n: &str) -> bool {
        self.bound.iter().filter(|b| b.as_str() == n).count() == 1
    }

    /// `t = <the solution module>` or `t = <the solution module>.attr`.
    fn assignment(&mut self, t: &str, value: &Expr) {
        if !self.binds_once(t) {
            return;
        }
        // `t = sol.X` is no alias: it reads the module's `X` at that moment, which a later read
        // need not see (`before = sol.COUNT; sol.sell(3)`); it is replayed as any assignment is.
        if is_solution_module(self.ctx, &self.aliases, value) {
            self.aliases
                .insert(t.to_string(), module_replacement(self.ctx));
        }
    }

    /// `import solution [as s]`, or a standard-library `import m [as n]`.
    fn import(&mut self, stmt: &Stmt, i: &ruff_python_ast::StmtImport) {
        for a in &i.names {
            let module = a.name.to_string();
            let bound_as = a.asname.as_ref().unwrap_or(&a.name).to_string();
            if self.ctx.scope.solution_modules.contains(&module)
                && (a.asname.is_some() || !module.contains('.'))
                && self.binds_once(&bound_as)
            {
                self.aliases.insert(bound_as, module_replacement(self.ctx));
            } else if let Some(text) = names::stdlib_import(&module, a.asname.is_some()) {
                let top = module.split('.').next().unwrap_or_default();
                let bound_as = a.asname.as_ref().map_or(top, |n| n.as_str());
                self.stdlib_alias(stmt, bound_as, &text);
            }
        }
    }

    /// `from m import x [as y]` of the standard library.
    fn stdlib_from_import(&mut self, stmt: &Stmt, i: &ruff_python_ast::StmtImportFrom) {
        let module = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
        for a in &i.names {
            let bound_as = a.asname.as_ref().unwrap_or(&a.name).as_str();
            if let Some(text) = names::stdlib_from_import(&module, a.name.as_str()) {
                self.stdlib_alias(stmt, bound_as, &text);
            }
        }
    }

    /// A standard-library import's spelling for `bound_as`, where that is exact.
    fn stdlib_alias(&mut self, stmt: &Stmt, bound_as: &str, text: &str) {
        if self.binds_once(bound_as) && stdlib_alias_ok(self.ctx, self.f, stmt, bound_as) {
            self.aliases.insert(
                bound_as.to_string(),
                Replacement::Value(Rc::new(names::import_value(text))),
            );
        }
    }
}

fn is_solution_import(ctx: &Ctx, i: &ruff_python_ast::StmtImportFrom) -> bool {
    let module = i.module.as_ref().map(|m| m.as_str()).unwrap_or_default();
    ctx.scope
        .solution_modules
        .iter()
        .any(|m| module == m || module.starts_with(&format!("{m}.")))
}

/// Whether a standard-library import inside the test (a top-level statement of it, binding `name`
/// once) can be spelled out wherever the test reads `name`: the test reads it only after the import
/// (a read before it is an `UnboundLocalError` in pytest), nothing else in the test binds, deletes or
/// declares it (walrus targets, nested scopes, `global`/`nonlocal` included), and the solution does
/// not define `__import__`. Importing the standard library runs no user code, so the import need not
/// run where it was written.
fn stdlib_alias_ok(ctx: &Ctx, f: &StmtFunctionDef, import: &Stmt, name: &str) -> bool {
    !shadows_import(ctx) && reads_only_after(f, import, name)
}

/// Whether the test reads `name` only after `import` binds it, and nothing else in it binds,
/// deletes or declares the name.
fn reads_only_after(f: &StmtFunctionDef, import: &Stmt, name: &str) -> bool {
    let before = import.range().start();
    let declares = any_stmt(&f.body[..], Scope::All, |stmt| match stmt {
        Stmt::Global(g) => g.names.iter().any(|n| n.as_str() == name),
        Stmt::Nonlocal(g) => g.names.iter().any(|n| n.as_str() == name),
        _ => false,
    });
    let bad_use = any_expr(&f.body[..], Scope::All, |expr| {
        matches!(expr, Expr::Name(n) if n.id.as_str() == name
            && (!matches!(n.ctx, ruff_python_ast::ExprContext::Load) || n.range.start() < before))
    });
    // Parameters are bound before the body: the test would read the parameter until the import.
    !declares && !bad_use && !f.parameters.iter().any(|p| p.name().as_str() == name)
}

/// Whether a statement only binds a solution alias (it is then not replayed: the namespace is the
/// solution's, so the alias is spelled out where it is used).
pub fn is_alias_stmt(stmt: &Stmt, aliases: &Aliases) -> bool {
    match stmt {
        Stmt::Assign(a) => {
            matches!(a.targets.as_slice(), [Expr::Name(t)] if aliases.contains_key(t.id.as_str()))
        }
        Stmt::Import(i) => i
            .names
            .iter()
            .all(|n| aliases.contains_key(n.asname.as_ref().unwrap_or(&n.name).as_str())),
        Stmt::ImportFrom(i) => i
            .names
            .iter()
            .all(|n| aliases.contains_key(n.asname.as_ref().unwrap_or(&n.name).as_str())),
        _ => false,
    }
}

pub fn is_solution_module(ctx: &Ctx, aliases: &Aliases, expr: &Expr) -> bool {
    match expr {
        Expr::Name(n) if aliases.contains_key(n.id.as_str()) => {
            matches!(
                aliases.get(n.id.as_str()),
                Some(Replacement::SolutionModule(_))
            )
        }
        other => ctx.scope.is_solution_module_expr(other),
    }
}

/// How many distinct solution modules a test sees: the one the file imports or loads at module
/// level (if the test uses it), plus one per call of a loader inside the test. One namespace can
/// stand for one module only.
pub fn loader_calls(ctx: &Ctx, f: &StmtFunctionDef) -> Vec<ruff_text_size::TextRange> {
    let mut out = Vec::new();
    for_each_expr(&f.body[..], Scope::All, |expr| {
        if let Expr::Call(call) = expr {
            if matches!(call.func.as_ref(), Expr::Name(n) if ctx.scope.loaders.contains(n.id.as_str()))
            {
                out.push(call.range());
            }
        }
    });
    out
}
