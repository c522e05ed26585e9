//! The write-up's extractor at its earlier stages, reproduced on purpose for teaching.
//!
//! - `as-written`: every `assert` in the file, verbatim, helper asserts included.
//! - `six-shapes`: walk each function in order; inline top-level `name = value` assignments into later
//!   asserts; forget a name when a statement calls `name.method(...)`; rewrite `_load_solution().X` to
//!   `X`; drop what still has a name outside the safe set (builtins, loader names, test-file imports).
//! - `seven-shapes`: the same, without trusting the test file's imports.
//!
//! These stages are *not* held to the contract: they keep stale values and trust imports exactly as
//! the write-up's extractor did, so that the page can replay its story.

use crate::sort::SharedSort as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::rc::Rc;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::model::{Assertion, Stage, Status};
use crate::module::{Global, ModuleScope};
use crate::names::{self, Replacement};
use crate::shape::Shape;
use crate::source::SourceMap;
use crate::walk::{self, Scope};

pub fn extract(
    stage: Stage,
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    full: &[Assertion],
    helpers: &[(&ast::StmtAssert, String)],
) -> Vec<Assertion> {
    // Shapes as the faithful stage classified them, by assert position; helper asserts are their own.
    let mut shapes_at: HashMap<u32, Vec<Shape>> = HashMap::default();
    for a in full {
        let entry = shapes_at.entry(a.span.start).or_default();
        entry.extend(a.shapes.iter().copied());
        entry.sort_shared();
        entry.dedup();
    }
    for (a, _) in helpers {
        shapes_at.insert(a.range.start().to_u32(), vec![Shape::HelperAssertion]);
    }
    let loader_names = loader_attribute_names(body, scope);
    let mut out = Vec::new();
    let mut functions = Vec::new();
    collect_functions(body, "", &mut functions);
    let walk = Walk {
        stage,
        scope,
        map,
        loader_names: &loader_names,
        shapes_at: &shapes_at,
    };
    for (owner, f) in &functions {
        walk.function(f, owner, &mut out);
    }
    // Module-level asserts (rare) are taken verbatim in every stage.
    for stmt in body {
        if let Stmt::Assert(a) = stmt {
            out.push(entry(
                map,
                "<module>",
                a,
                Some(map.text(a.test.range()).to_string()),
                None,
                &shapes_at,
            ));
        }
    }
    out.sort_shared_by_key(|a| a.span.start);
    out
}

fn collect_functions<'a>(
    body: &'a [Stmt],
    prefix: &str,
    out: &mut Vec<(String, &'a ast::StmtFunctionDef)>,
) {
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(f) => out.push((format!("{prefix}{}", f.name), f)),
            Stmt::ClassDef(c) => collect_functions(&c.body, &format!("{prefix}{}::", c.name), out),
            _ => {}
        }
    }
}

/// Names `X` used as `_load_solution().X` anywhere in the file (the write-up's safe-set source), plus
/// names the file binds to the solution through aliases and imports from it.
fn loader_attribute_names(body: &[Stmt], scope: &ModuleScope) -> HashSet<String> {
    let mut names = HashSet::default();
    walk::for_each_expr(body, Scope::All, |expr| {
        if let Expr::Attribute(a) = expr {
            if let Expr::Call(call) = a.value.as_ref() {
                if matches!(call.func.as_ref(), Expr::Name(n) if scope.loaders.contains(n.id.as_str()))
                {
                    names.insert(a.attr.to_string());
                }
            }
        }
    });
    for (name, g) in &scope.globals {
        if let Global::SolutionName { .. } = g {
            names.insert(name.clone());
        }
    }
    names
}

/// What walking one function needs: the stage, the module, and what the whole file told.
struct Walk<'w> {
    stage: Stage,
    scope: &'w ModuleScope<'w>,
    map: &'w SourceMap<'w>,
    loader_names: &'w HashSet<String>,
    shapes_at: &'w HashMap<u32, Vec<Shape>>,
}

impl Walk<'_> {
    /// Every assert of the function as the stage takes it.
    fn function(&self, f: &ast::StmtFunctionDef, owner: &str, out: &mut Vec<Assertion>) {
        let (map, shapes_at) = (self.map, self.shapes_at);
        let asserts = nested_asserts(&f.body);
        if self.stage == Stage::AsWritten {
            for a in asserts {
                let text = map.text(a.test.range()).to_string();
                out.push(entry(map, owner, a, Some(text), None, shapes_at));
            }
            return;
        }
        for a in asserts {
            let table = self.table_before(f, a);
            let Ok(rendered) = names::render(&a.test, &table, map) else {
                continue;
            };
            let unresolved = self.unresolved(&rendered.free);
            if unresolved.is_empty() {
                out.push(entry(map, owner, a, Some(rendered.text), None, shapes_at));
            } else {
                let listed: Vec<String> = unresolved.iter().map(|n| format!("`{n}`")).collect();
                let reason = format!(
                    "unresolved name {} after inlining (the write-up's safety net)",
                    listed.join(", ")
                );
                out.push(entry(
                    map,
                    owner,
                    a,
                    None,
                    Some((reason, unresolved)),
                    shapes_at,
                ));
            }
        }
    }

    /// The inlining table at assert `a`: the function's top-level statements before it, in order;
    /// assignments tracked, `name.method(...)` forgets the name, and `_load_solution().X` is
    /// rewritten to `X` (the loaders map to the solution module).
    fn table_before(
        &self,
        f: &ast::StmtFunctionDef,
        a: &ast::StmtAssert,
    ) -> HashMap<String, Replacement> {
        let (scope, map) = (self.scope, self.map);
        let mut table: HashMap<String, Replacement> = scope
            .loaders
            .iter()
            .map(|l| (l.clone(), Replacement::SolutionModule(None)))
            .collect();
        for stmt in f
            .body
            .iter()
            .take_while(|s| s.range().start() <= a.range.start())
        {
            if stmt.range().contains_range(a.range) {
                break;
            }
            match stmt {
                Stmt::Assign(assign) => {
                    if let [Expr::Name(t)] = assign.targets.as_slice() {
                        let replacement = if scope.is_solution_module_expr(&assign.value) {
                            Some(Replacement::SolutionModule(None))
                        } else {
                            names::render(&assign.value, &table, map)
                                .ok()
                                .map(|r| Replacement::Value(Rc::new(r)))
                        };
                        if let Some(r) = replacement {
                            table.insert(t.id.to_string(), r);
                        }
                    }
                }
                Stmt::Expr(e) => {
                    if let Expr::Call(call) = e.value.as_ref() {
                        if let Expr::Attribute(attr) = call.func.as_ref() {
                            if let Expr::Name(n) = attr.value.as_ref() {
                                table.remove(n.id.as_str());
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        table
    }

    /// The names outside the stage's safe set: builtins, loader attribute names, and (at
    /// `six-shapes` only) the test file's imports.
    fn unresolved<'n>(&self, free: impl IntoIterator<Item = &'n String>) -> Vec<String> {
        free.into_iter()
            .filter(|name| {
                !(ruff_python_stdlib::builtins::is_python_builtin(name, 14, false)
                    || self.loader_names.contains(*name)
                    || (self.stage == Stage::SixShapes
                        && matches!(self.scope.globals.get(*name), Some(Global::Import { .. }))))
            })
            .cloned()
            .collect()
    }
}

/// Every assert in a function's body, nested ones included, in source order (the naive AST walk),
/// without entering nested functions and classes.
fn nested_asserts(body: &[Stmt]) -> Vec<&ast::StmtAssert> {
    let mut out = Vec::new();
    walk::for_each_stmt(body, Scope::Own, |stmt| {
        if let Stmt::Assert(a) = stmt {
            out.push(a);
        }
    });
    out
}

fn entry(
    map: &SourceMap,
    owner: &str,
    a: &ast::StmtAssert,
    expr: Option<String>,
    dropped: Option<(String, Vec<String>)>,
    shapes_at: &HashMap<u32, Vec<Shape>>,
) -> Assertion {
    let (line, column) = map.line_column(a.range.start());
    let range: TextRange = a.range;
    let (status, reason, unresolved) = match dropped {
        Some((reason, names)) => (Status::Dropped, Some(reason), Some(names)),
        None => (Status::Kept, None, None),
    };
    let rule = reason
        .is_some()
        .then(|| crate::rules::Rule::from(crate::rules::Evaluator::UnresolvedName).reference());
    Assertion {
        test: owner.to_string(),
        line,
        column,
        source: map.text(range).to_string(),
        status,
        expr,
        reason,
        rule,
        unresolved,
        shapes: shapes_at
            .get(&range.start().to_u32())
            .cloned()
            .unwrap_or_default(),
        span: map.span(range),
        origins: Vec::new(),
        warning_filters: Vec::new(),
    }
}
