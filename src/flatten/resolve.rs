//! Names outside the test's locals: which refer to the solution (and under which of its own names),
//! which are constants of the test file, and which the evaluation namespace cannot have.

use std::rc::Rc;

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};
use ruff_text_size::Ranged;

use super::items::Aliases;
use super::Ctx;
use crate::model::{Origin, OriginRole};
use crate::module::{BoundNames, Global};
use crate::names::{self, Replacement};

pub enum Resolution {
    Ok,
    /// Resolved to a standard-library import's spelling (the seventh shape, kept).
    Stdlib,
    /// Unresolved, with why, and whether it is an imported module.
    Unresolved(String, bool),
}

/// Module attributes that are certainly globals of a module loaded from a file. Any other dunder
/// (`__version__`, `__all__`, `__dict__`) may come from a module `__getattr__` or not be a global.
const MODULE_DUNDERS: &[&str] = &[
    "__name__",
    "__file__",
    "__doc__",
    "__spec__",
    "__loader__",
    "__package__",
];

/// Local aliases of the solution, bound once each in the test: `sol = _load_solution()`,
/// `f = sol.f`, `from solution import f`.
pub fn local_aliases(ctx: &Ctx, f: &StmtFunctionDef) -> Aliases {
    let mut bound = BoundNames::default();
    for stmt in &f.body {
        bound.visit_stmt(stmt);
    }
    let bind_count = |n: &str| bound.names.iter().filter(|b| b.as_str() == n).count();
    let mut aliases = Aliases::default();
    for stmt in &f.body {
        match stmt {
            Stmt::Assign(a) => {
                if let [Expr::Name(t)] = a.targets.as_slice() {
                    if bind_count(t.id.as_str()) != 1 {
                        continue;
                    }
                    if is_solution_module(ctx, &aliases, &a.value) {
                        aliases.insert(t.id.to_string(), Replacement::SolutionModule);
                    } else if let Some(attr) = solution_attr(ctx, &aliases, &a.value) {
                        aliases.insert(
                            t.id.to_string(),
                            Replacement::Value(Rc::new(names::Rendered::name(&attr))),
                        );
                    }
                }
            }
            Stmt::Import(i) => {
                for a in &i.names {
                    let module = a.name.to_string();
                    let bound_as = a.asname.as_ref().unwrap_or(&a.name).to_string();
                    if ctx.scope.solution_modules.contains(&module)
                        && (a.asname.is_some() || !module.contains('.'))
                        && bind_count(&bound_as) == 1
                    {
                        aliases.insert(bound_as, Replacement::SolutionModule);
                    } else if let Some(text) = names::stdlib_import(&module, a.asname.is_some()) {
                        let top = module.split('.').next().unwrap_or_default();
                        let bound_as = a.asname.as_ref().map_or(top, |n| n.as_str());
                        if bind_count(bound_as) == 1 && stdlib_alias_ok(ctx, f, stmt, bound_as) {
                            aliases.insert(
                                bound_as.to_string(),
                                Replacement::Value(Rc::new(names::import_value(&text))),
                            );
                        }
                    }
                }
            }
            Stmt::ImportFrom(i) if i.level == 0 && !is_solution_import(ctx, i) => {
                let module = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
                for a in &i.names {
                    let bound_as = a.asname.as_ref().unwrap_or(&a.name).as_str();
                    if let Some(text) = names::stdlib_from_import(&module, a.name.as_str()) {
                        if bind_count(bound_as) == 1 && stdlib_alias_ok(ctx, f, stmt, bound_as) {
                            aliases.insert(
                                bound_as.to_string(),
                                Replacement::Value(Rc::new(names::import_value(&text))),
                            );
                        }
                    }
                }
            }
            Stmt::ImportFrom(i) if i.level == 0 => {
                let module = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
                if ctx
                    .scope
                    .solution_modules
                    .iter()
                    .any(|m| module == *m || module.starts_with(&format!("{m}.")))
                {
                    for a in &i.names {
                        let bound_as = a.asname.as_ref().unwrap_or(&a.name).to_string();
                        if bind_count(&bound_as) == 1 {
                            aliases.insert(
                                bound_as,
                                Replacement::Value(Rc::new(names::Rendered::name(a.name.as_str()))),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }
    aliases
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
    struct Uses<'n> {
        name: &'n str,
        before: ruff_text_size::TextSize,
        bad: bool,
    }
    impl<'e> Visitor<'e> for Uses<'_> {
        fn visit_stmt(&mut self, stmt: &'e Stmt) {
            match stmt {
                Stmt::Global(g) if g.names.iter().any(|n| n.as_str() == self.name) => {
                    self.bad = true
                }
                Stmt::Nonlocal(g) if g.names.iter().any(|n| n.as_str() == self.name) => {
                    self.bad = true
                }
                _ => {}
            }
            visitor::walk_stmt(self, stmt);
        }
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Name(n) = expr {
                if n.id.as_str() == self.name
                    && (!matches!(n.ctx, ruff_python_ast::ExprContext::Load)
                        || n.range.start() < self.before)
                {
                    self.bad = true;
                }
            }
            visitor::walk_expr(self, expr);
        }
    }
    if shadows_import(ctx) {
        return false;
    }
    let mut uses = Uses {
        name,
        before: import.range().start(),
        bad: false,
    };
    for stmt in &f.body {
        uses.visit_stmt(stmt);
    }
    // Parameters are bound before the body: the test would read the parameter until the import.
    !uses.bad && !f.parameters.iter().any(|p| p.name().as_str() == name)
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
                Some(Replacement::SolutionModule)
            )
        }
        other => ctx.scope.is_solution_module_expr(other),
    }
}

/// `module.attr` as an alias of the solution's `attr` — not for a special name the module need not
/// have as a global (that read stays, and is refused where it is resolved).
fn solution_attr(ctx: &Ctx, aliases: &Aliases, expr: &Expr) -> Option<String> {
    match expr {
        Expr::Attribute(a) if is_solution_module(ctx, aliases, &a.value) => {
            let attr = a.attr.as_str();
            let special = attr.starts_with("__") && attr.ends_with("__");
            let defined = &ctx.scope.solution_defined;
            let by_getattr = defined.contains("__getattr__") && !defined.contains(attr);
            ((!special || MODULE_DUNDERS.contains(&attr)) && !by_getattr).then(|| attr.to_string())
        }
        _ => None,
    }
}

/// How many distinct solution modules a test sees: the one the file imports or loads at module
/// level (if the test uses it), plus one per call of a loader inside the test. One namespace can
/// stand for one module only.
pub fn loader_calls(ctx: &Ctx, f: &StmtFunctionDef) -> Vec<ruff_text_size::TextRange> {
    struct Calls<'c, 's, 'a> {
        ctx: &'c Ctx<'s, 'a>,
        out: Vec<ruff_text_size::TextRange>,
    }
    impl<'e> Visitor<'e> for Calls<'_, '_, '_> {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Call(call) = expr {
                if matches!(call.func.as_ref(), Expr::Name(n) if self.ctx.scope.loaders.contains(n.id.as_str()))
                {
                    self.out.push(call.range());
                }
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut calls = Calls {
        ctx,
        out: Vec::new(),
    };
    for stmt in &f.body {
        calls.visit_stmt(stmt);
    }
    calls.out
}

/// Resolve a name the assertion reads that is not a local of the test.
pub fn resolve_global(
    ctx: &Ctx,
    name: &str,
    attr: Option<&str>,
    map: &mut Aliases,
    origins: &mut Vec<Origin>,
    solution_names: &mut Vec<String>,
) -> Resolution {
    match ctx.scope.globals.get(name) {
        Some(Global::SolutionModule) => match attr {
            Some(attr) => module_attr(ctx, name, attr, map, solution_names),
            None => Resolution::Unresolved(format!("`{name}` is the solution module itself, which has no name in its own namespace"), false),
        },
        Some(Global::SolutionName { name: real })
            if real.starts_with("__") && real.ends_with("__") && !MODULE_DUNDERS.contains(&real.as_str()) =>
        {
            Resolution::Unresolved(format!("`{name}` is the solution's `{real}`, a special name a module `__getattr__` may provide without it being a global"), false)
        }
        Some(Global::SolutionName { name: real }) => {
            solution_names.push(real.clone());
            map.insert(name.to_string(), Replacement::Value(Rc::new(names::Rendered::name(real))));
            Resolution::Ok
        }
        Some(Global::Constant { value, range, .. }) => {
            origins.push(Origin { role: OriginRole::Constant, span: ctx.map.span(*range) });
            map.insert(name.to_string(), Replacement::Value(Rc::clone(value)));
            Resolution::Ok
        }
        // A standard-library import is spelled out: `__import__` gives the same module object in
        // the solution's namespace, and importing the standard library runs no user code (the
        // test file's import already ran it in pytest's process).
        Some(Global::Import { stdlib: Some(text), .. }) if !shadows_import(ctx) => {
            map.insert(name.to_string(), Replacement::Value(Rc::new(names::import_value(text))));
            Resolution::Stdlib
        }
        Some(Global::Import { module, line, .. }) => Resolution::Unresolved(
            if module == name {
                format!("`{name}` is a module the test file imports (line {line}); the evaluation namespace is the solution's, which need not have it")
            } else {
                format!("`{name}` comes from `{module}`, imported by the test file (line {line}); the evaluation namespace is the solution's, which need not have it")
            },
            true,
        ),
        Some(Global::Helper { kind, line }) => {
            if ctx.scope.loaders.contains(name) {
                if let Some(attr) = attr {
                    return module_attr(ctx, name, attr, map, solution_names);
                }
                Resolution::Unresolved(format!("`{name}` loads the solution; only `{name}().X` can be rewritten"), false)
            } else {
                Resolution::Unresolved(format!("`{name}` is a {kind} the test file defines (line {line}), not part of the solution"), false)
            }
        }
        Some(Global::Computed { line, why }) => Resolution::Unresolved(format!("`{name}` (line {line}) {why}"), false),
        None => {
            if ruff_python_stdlib::builtins::is_python_builtin(name, 14, false) {
                Resolution::Ok
            } else if ctx.scope.star_import {
                solution_names.push(name.to_string());
                Resolution::Ok
            } else {
                Resolution::Unresolved(format!("`{name}` is not defined in the test file"), false)
            }
        }
    }
}

/// Whether the solution may define `__import__`, which the import spellings call.
pub fn shadows_import(ctx: &Ctx) -> bool {
    ctx.scope.solution_defined.contains("__import__")
        || ctx.scope.solution_attrs.contains("__import__")
}

/// `module.attr` for the solution module: `attr` in its namespace, unless `attr` is a dunder that
/// need not be a global.
pub fn module_attr(
    ctx: &Ctx,
    name: &str,
    attr: &str,
    map: &mut Aliases,
    solution_names: &mut Vec<String>,
) -> Resolution {
    // A solution with a module `__getattr__` answers `module.attr` for names it does not define;
    // in its namespace those names do not exist.
    let defined = &ctx.scope.solution_defined;
    if defined.contains("__getattr__") && !defined.contains(attr) && !MODULE_DUNDERS.contains(&attr)
    {
        return Resolution::Unresolved(
            format!("`{name}.{attr}` is answered by the solution's module `__getattr__`; `{attr}` is not a global of its namespace"),
            false,
        );
    }
    if attr.starts_with("__") && attr.ends_with("__") && !MODULE_DUNDERS.contains(&attr) {
        return Resolution::Unresolved(
            format!("`{name}.{attr}` is a special attribute of the solution module, which a module `__getattr__` may provide without it being a global"),
            false,
        );
    }
    solution_names.push(attr.to_string());
    map.insert(name.to_string(), Replacement::SolutionModule);
    Resolution::Ok
}
