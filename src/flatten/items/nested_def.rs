//! A function defined inside the test (`def cli(shout): click.echo(shout)`, decorated or not),
//! replayed where the test defines it as a lambda that is the same function in every way a
//! candidate can observe through the function object:
//!
//! - **Its name.** `__name__`, `__qualname__` (`test_x.<locals>.cli`) and the code object's
//!   `co_name` and `co_qualname` are set to the `def`'s before any decorator sees it (a decorator
//!   such as `click.command()` names the command after the function).
//! - **Its creation.** Decorators are evaluated top to bottom, then the defaults, then the function
//!   is made and the decorators applied bottom up: `D1(D2(f))` evaluates `D1`, `D2`, then `f`,
//!   then calls, in that order. Defaults are evaluated once, where the `def` runs.
//! - **Its body.** Plain statements only: expression statements, assignments to one name (a local
//!   of the function, bound with `:=` in the lambda, which makes it local for the whole body as the
//!   assignment does), `pass`, and a final `return` (none returns `None`). Each runs once per call,
//!   in order, in one frame.
//! - **Its scope.** The lambda is created inside the fold's own lambda, where the test's locals
//!   are locals too: the body reads them through the same closure cells, at call time (late
//!   binding, as the `def`'s body does); its globals are the evaluation namespace, the test
//!   module's.
//!
//! Refused (the statement stays a blocker, `nested-definition`): `async`, type parameters,
//! annotations (a lambda has none), a docstring (the compiler of Python 3.13 and later cleans it,
//! earlier ones do not), `yield`/`await`/`:=` in the body, `global`/`nonlocal`, asserts, any other
//! statement, and reads of builtins that answer from the caller's frame or class (`super`,
//! `locals`, `vars`, …). What stays different is where the code says it lives: its
//! `co_filename` and line numbers, as for every kept expression.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use super::{Item, Kind, Piece};
use crate::flatten::Ctx;
use crate::model::OriginRole;
use crate::names::{Facts, Ident};

/// Builtins whose answer depends on the function's frame or class cell.
const FRAME_BUILTINS: &[&str] = &[
    "super",
    "__class__",
    "locals",
    "vars",
    "globals",
    "dir",
    "eval",
    "exec",
    "compile",
    "breakpoint",
];

/// A step of the body: `(Some(name), value)` for `name = value`, `(None, value)` for an expression
/// statement.
pub(crate) type DefStep<'a> = (Option<&'a str>, &'a Expr);

/// The body of a replayable nested `def`: its steps and the value it returns (`None` for none).
pub(crate) fn def_body(def: &ast::StmtFunctionDef) -> Option<(Vec<DefStep<'_>>, Option<&Expr>)> {
    if def.is_async || def.type_params.is_some() || def.returns.is_some() {
        return None;
    }
    if def
        .parameters
        .iter()
        .any(|p| p.annotation().is_some() || p.name().starts_with("_bx_"))
        || def.name.starts_with("_bx_")
    {
        return None;
    }
    let mut steps = Vec::new();
    let mut value = None;
    let last = def.body.len().saturating_sub(1);
    for (i, stmt) in def.body.iter().enumerate() {
        match stmt {
            // A docstring: `__doc__`, which the compiler cleans from Python 3.13 on.
            Stmt::Expr(e) if i == 0 && matches!(e.value.as_ref(), Expr::StringLiteral(_)) => {
                return None
            }
            Stmt::Expr(e) => steps.push((None, e.value.as_ref())),
            Stmt::Assign(a) => match a.targets.as_slice() {
                [Expr::Name(t)] => steps.push((Some(t.id.as_str()), a.value.as_ref())),
                _ => return None,
            },
            Stmt::Pass(_) => {}
            Stmt::Return(r) if i == last => value = r.value.as_deref(),
            _ => return None,
        }
    }
    let exprs = steps.iter().map(|(_, e)| *e).chain(value);
    for e in exprs {
        let unplain = crate::walk::any_expr(e, crate::walk::Scope::All, |x| {
            matches!(
                x,
                Expr::Yield(_) | Expr::YieldFrom(_) | Expr::Await(_) | Expr::Named(_)
            ) || matches!(x, Expr::Name(n) if FRAME_BUILTINS.contains(&n.id.as_str()))
        });
        if unplain {
            return None;
        }
    }
    Some((steps, value))
}

/// The names the function binds in its own scope: its parameters and assigned locals.
pub(crate) fn def_locals(def: &ast::StmtFunctionDef) -> Vec<String> {
    let mut names: Vec<String> = def
        .parameters
        .iter()
        .map(|p| p.name().to_string())
        .collect();
    for stmt in &def.body {
        if let Stmt::Assign(a) = stmt {
            for t in &a.targets {
                if let Expr::Name(n) = t {
                    names.push(n.id.to_string());
                }
            }
        }
    }
    names
}

/// The item of a nested `def` the fold can replay, or `None` (the caller keeps the statement as a
/// blocker). `qualname`: the function's `__qualname__` (`test_x.<locals>.cli`).
pub fn nested_def<'a>(
    ctx: &Ctx<'_, 'a>,
    def: &'a ast::StmtFunctionDef,
    qualname: String,
    is_local: &dyn Fn(&str) -> bool,
) -> Option<Item<'a>> {
    let (steps, value) = def_body(def)?;
    let own = def_locals(def);
    let mut item = Item::blank(def.range(), Kind::Other, OriginRole::Folded);
    item.defs.push(Ident::from(def.name.as_str()));
    // Evaluated where the `def` runs: decorators, then defaults.
    let mut now: Vec<&Expr> = def.decorator_list.iter().map(|d| &d.expression).collect();
    now.extend(def.parameters.iter().filter_map(|p| p.default()));
    for e in now {
        let facts = Facts::of(e);
        if !facts.walrus.is_empty() {
            return None;
        }
        for load in facts.loads {
            if is_local(&load.name) {
                item.reads.push(load.name.clone());
            }
            item.loads.push(load);
        }
    }
    // Evaluated at each call, maybe never, maybe many times: the body's reads of the test's
    // locals (through the closure) and of globals.
    for e in steps.iter().map(|(_, e)| *e).chain(value) {
        for mut load in Facts::of(e).loads {
            // Its own locals, and its own name (a recursive call reads the test's local, bound by
            // then).
            if own.iter().any(|o| o == load.name.as_str())
                || load.name.as_str() == def.name.as_str()
            {
                continue;
            }
            load.conditional = true;
            load.repeated = true;
            if is_local(&load.name) {
                item.reads.push(load.name.clone());
            }
            item.loads.push(load);
        }
    }
    let line = ctx.map.line(def.range().start());
    item.label = Some(format!("the nested function `{}` (line {line})", def.name));
    item.fold = Ok(Piece::Def(def, qualname));
    Some(item)
}

/// A statement of a replayable nested class's body.
pub(crate) enum ClassMember<'a> {
    /// `name = value`.
    Value(&'a str, &'a Expr),
    /// A method: a `def` replayable as `nested_def` replays one.
    Method(&'a ast::StmtFunctionDef),
}

/// The body of a nested `class` the fold can replay: `pass`, assignments to one name, and methods
/// of plain statements, none of whose values (or decorators, or defaults) reads a name the body
/// bound before it (the class body would read its own namespace first). `None` for anything else:
/// a docstring, annotations, nested classes, other statements.
pub(crate) fn class_members(class: &ast::StmtClassDef) -> Option<Vec<ClassMember<'_>>> {
    if class.type_params.is_some() || class.name.starts_with("_bx_") {
        return None;
    }
    let mut members = Vec::new();
    let mut bound: Vec<&str> = Vec::new();
    let reads_bound = |e: &Expr, bound: &[&str]| {
        crate::walk::any_expr(
            e,
            crate::walk::Scope::All,
            |x| matches!(x, Expr::Name(n) if bound.contains(&n.id.as_str()) || n.id.as_str() == "__class__"),
        )
    };
    for (i, stmt) in class.body.iter().enumerate() {
        match stmt {
            Stmt::Pass(_) => {}
            Stmt::Expr(e) if i == 0 && matches!(e.value.as_ref(), Expr::StringLiteral(_)) => {
                return None
            }
            Stmt::Assign(a) => match a.targets.as_slice() {
                [Expr::Name(t)] if !t.id.starts_with("__") && !reads_bound(&a.value, &bound) => {
                    members.push(ClassMember::Value(t.id.as_str(), a.value.as_ref()));
                    bound.push(t.id.as_str());
                }
                _ => return None,
            },
            Stmt::FunctionDef(f) => {
                def_body(f)?;
                let now = f
                    .decorator_list
                    .iter()
                    .map(|d| &d.expression)
                    .chain(f.parameters.iter().filter_map(|p| p.default()));
                for e in now {
                    if reads_bound(e, &bound) {
                        return None;
                    }
                }
                members.push(ClassMember::Method(f));
                bound.push(f.name.as_str());
            }
            _ => return None,
        }
    }
    Some(members)
}

/// The item of a nested `class` the fold can replay (see `class_members`), or `None`.
/// `qualname`: the class's `__qualname__` (`test_x.<locals>.A`).
pub fn nested_class<'a>(
    ctx: &Ctx<'_, 'a>,
    class: &'a ast::StmtClassDef,
    qualname: String,
    is_local: &dyn Fn(&str) -> bool,
) -> Option<Item<'a>> {
    let members = class_members(class)?;
    if let Some(args) = class.arguments.as_deref() {
        if args.keywords.iter().any(|k| k.arg.is_none())
            || args.args.iter().any(|a| matches!(a, Expr::Starred(_)))
        {
            return None;
        }
    }
    let mut item = Item::blank(class.range(), Kind::Other, OriginRole::Folded);
    item.defs.push(Ident::from(class.name.as_str()));
    let mut now: Vec<&Expr> = class.decorator_list.iter().map(|d| &d.expression).collect();
    if let Some(args) = class.arguments.as_deref() {
        now.extend(args.args.iter());
        now.extend(args.keywords.iter().map(|k| &k.value));
    }
    let mut later: Vec<(&Expr, Vec<String>)> = Vec::new();
    for member in &members {
        match member {
            ClassMember::Value(_, value) => now.push(value),
            ClassMember::Method(def) => {
                now.extend(def.decorator_list.iter().map(|d| &d.expression));
                now.extend(def.parameters.iter().filter_map(|p| p.default()));
                let (steps, value) = def_body(def)?;
                let own = def_locals(def);
                later.extend(steps.iter().map(|(_, e)| (*e, own.clone())));
                later.extend(value.map(|v| (v, own.clone())));
            }
        }
    }
    for e in now {
        let facts = Facts::of(e);
        if !facts.walrus.is_empty() {
            return None;
        }
        for load in facts.loads {
            if is_local(&load.name) {
                item.reads.push(load.name.clone());
            }
            item.loads.push(load);
        }
    }
    for (e, own) in later {
        for mut load in Facts::of(e).loads {
            if own.iter().any(|o| o == load.name.as_str())
                || load.name.as_str() == class.name.as_str()
            {
                continue;
            }
            load.conditional = true;
            load.repeated = true;
            if is_local(&load.name) {
                item.reads.push(load.name.clone());
            }
            item.loads.push(load);
        }
    }
    let line = ctx.map.line(class.range().start());
    item.label = Some(format!("the nested class `{}` (line {line})", class.name));
    item.fold = Ok(Piece::Class(class, qualname));
    Some(item)
}
