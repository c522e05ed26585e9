//! A function defined inside the test whose body is more than a lambda can hold (`if`, loops,
//! `try`, a docstring, `yield`, several returns), made in the check from its own source, as the
//! `def` statement makes it:
//!
//! - **Its code.** The `def`'s source text, compiled inside a function named after the test
//!   whose parameters are the test's locals the body reads: the compiler gives the code the same
//!   scopes (those names free, read through closure cells; every other name global), the same
//!   `co_name`/`co_qualname` (`test_x.<locals>.cli`), docstring and line numbers as pytest's
//!   compile of the test module. pytest rewrites only `assert` statements, so a body with an
//!   `assert` anywhere is refused; so are `global` and `nonlocal` (what they write the fold does
//!   not see), annotations of the `def` itself (evaluated by the enclosing code, which does not
//!   run here) and type parameters.
//! - **Its creation.** `types.FunctionType(code, globals, None, defaults, closure)`: decorators
//!   evaluated first (top to bottom), then the defaults (positional, then keyword-only, set as
//!   `__kwdefaults__`), then the function made and the decorators applied bottom up.
//! - **Its scope.** The closure is the check's own cells of those locals
//!   (`(lambda: (x, y)).__closure__`, taken where the `def` runs): the body reads and sees later
//!   bindings exactly as the `def`'s closure does; a local the check never binds is an empty cell,
//!   unbound as in pytest. Its globals are the evaluation namespace (the test module's), with the
//!   test file's names the fold writes in place (a standard-library import, a helper) added to a
//!   copy of it.
//!
//! What stays different is where the code says it lives: `co_filename`, as for every kept
//! expression.

use ruff_python_ast::token::TokenKind;
use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use super::compile_source::{
    free_loads, future_flags, has_future_annotations, py_string, universal_newlines, FreeLoads,
    FRAME, GLOBALS_READERS,
};
use super::items::{Compiled, Item, Kind, Piece};
use super::resolve::Aliases;
use super::{Ctx, Test};
use crate::model::OriginRole;
use crate::module::Global;
use crate::names::{self, Facts, Ident, Load, Replacement};
use crate::rules::Reason;

/// The item of a nested `def` made from its source (see the module's docs), or `None`.
pub(super) fn item<'a>(
    ctx: &Ctx<'_, 'a>,
    def: &'a ast::StmtFunctionDef,
    test: &Test<'_, 'a>,
) -> Option<Item<'a>> {
    if def.type_params.is_some()
        || def.returns.is_some()
        || def.name.starts_with("_bx_")
        || def
            .parameters
            .iter()
            .any(|p| p.annotation().is_some() || p.name().starts_with("_bx_"))
    {
        return None;
    }
    if test_scope_unclear(test) {
        return None;
    }
    keyword_line(ctx, def.range.start(), def.decorator_list.first())?;
    let params: Vec<String> = def
        .parameters
        .iter()
        .map(|p| p.name().to_string())
        .collect();
    let body_loads = free_loads(&params, &def.body, has_future_annotations(ctx.map.source))?;
    let mut item = Item::blank(def.range(), Kind::Other, OriginRole::Folded);
    item.defs.push(Ident::from(def.name.as_str()));
    // Evaluated where the `def` runs: decorators, then defaults.
    let mut now: Vec<&Expr> = def.decorator_list.iter().map(|d| &d.expression).collect();
    now.extend(def.parameters.iter().filter_map(|p| p.default()));
    let compiled = scoped(
        &ctx.scope.globals,
        &mut item,
        test,
        now,
        body_loads,
        def.name.as_str(),
    )?;
    let line = ctx.map.line(def.range().start());
    item.label = Some(format!("the nested function `{}` (line {line})", def.name));
    item.fold = Ok(Piece::Compiled(def, std::rc::Rc::new(compiled)));
    Some(item)
}

/// The item's reads and loads: what the statement evaluates where it runs (`now`: decorators,
/// defaults, bases), then what its code reads when it runs (`later`), sorted into the test's
/// locals (the closure's cells) and the module's names. `None` when the code reads a local the
/// fold writes in place (an alias of the solution), which has no cell to share.
fn scoped<'a>(
    globals: &rustc_hash::FxHashMap<String, crate::module::Global<'a>>,
    item: &mut Item<'a>,
    test: &Test<'_, 'a>,
    now: Vec<&Expr>,
    later: Vec<Load>,
    own_name: &str,
) -> Option<Compiled> {
    // The check spells `__import__`, which a local of that name would hide.
    if test.locals.contains("__import__") {
        return None;
    }
    for e in now {
        let facts = Facts::of(e);
        if !facts.walrus.is_empty() {
            return None;
        }
        for load in facts.loads {
            if test.is_local(&load.name) {
                item.reads.push(load.name.clone());
            }
            item.loads.push(load);
        }
    }
    let mut test_names: Vec<String> = Vec::new();
    let mut global_names: Vec<String> = Vec::new();
    for mut load in later {
        let name = load.name.as_str();
        if GLOBALS_READERS.contains(&name)
            && !test.locals.contains(name)
            && !globals.contains_key(name)
        {
            return None;
        }
        // The builtins that read their caller's frame read the compiled code's own, as pytest's
        // code does: nothing the fold changes.
        if FRAME.contains(&name) && !test.locals.contains(name) && !globals.contains_key(name) {
            continue;
        }
        if test.locals.contains(name) {
            if !test.is_local(name) {
                return None;
            }
            if !test_names.iter().any(|n| n == name) {
                test_names.push(name.to_string());
            }
            // Its own name (a recursive call) is bound by the time anything calls it.
            if name != own_name {
                item.reads.push(load.name.clone());
            }
        } else if !global_names.iter().any(|n| n == name) {
            global_names.push(name.to_string());
        }
        load.conditional = true;
        load.repeated = true;
        item.loads.push(load);
    }
    // A local the test deletes is unbound in pytest's closure; the fold writes `del` as a
    // binding to `None`.
    let deleted = crate::walk::any_stmt(
        test.case.func.body.as_slice(),
        crate::walk::Scope::Own,
        |s| matches!(s, Stmt::Delete(d) if d.targets.iter().any(|t| matches!(t, Expr::Name(n) if test_names.contains(&n.id.to_string())))),
    );
    if deleted {
        return None;
    }
    test_names.sort();
    global_names.sort();
    Some(Compiled {
        outer: test.case.func.name.to_string(),
        test_names,
        global_names,
    })
}

/// Where the statement's first line starts (its first decorator's, whose line the compiler gives
/// the code as `co_firstlineno`, or the `def`/`class` keyword's) and that line, when nothing but
/// indentation comes before it on the line (and the line leaves room for the enclosing
/// function's).
fn keyword_line(
    ctx: &Ctx,
    start: ruff_text_size::TextSize,
    first_decorator: Option<&ast::Decorator>,
) -> Option<(usize, u32)> {
    let keyword = match first_decorator {
        Some(d) => d.range.start(),
        None => ctx
            .map
            .tokens
            .after(start)
            .iter()
            .find(|t| {
                matches!(
                    t.kind(),
                    TokenKind::Def | TokenKind::Async | TokenKind::Class
                )
            })?
            .start(),
    };
    let source = ctx.map.source;
    let at = usize::from(keyword);
    let line_start = source[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    if !source[line_start..at]
        .chars()
        .all(|c| c == ' ' || c == '\t')
        || line_start == at
    {
        return None;
    }
    let line = ctx.map.line(keyword);
    (line >= 2).then_some((line_start, line))
}

/// A test whose own scope the names it binds (`BoundNames`) may not tell exactly: one that
/// declares names `global` or `nonlocal`, or binds them in a `match`.
fn test_scope_unclear(test: &Test) -> bool {
    crate::walk::any_stmt(
        test.case.func.body.as_slice(),
        crate::walk::Scope::Own,
        |s| matches!(s, Stmt::Global(_) | Stmt::Nonlocal(_) | Stmt::Match(_)),
    )
}

/// The item of a nested `class` made from its source (see the module's docs), or `None`.
pub(super) fn class_item<'a>(
    ctx: &Ctx<'_, 'a>,
    class: &'a ast::StmtClassDef,
    test: &Test<'_, 'a>,
) -> Option<Item<'a>> {
    if class.type_params.is_some() || class.name.starts_with("_bx_") || test_scope_unclear(test) {
        return None;
    }
    if let Some(args) = class.arguments.as_deref() {
        if args.keywords.iter().any(|k| k.arg.is_none())
            || args.args.iter().any(|a| matches!(a, Expr::Starred(_)))
        {
            return None;
        }
    }
    keyword_line(ctx, class.range.start(), class.decorator_list.first())?;
    let mut walker = FreeLoads {
        future_annotations: has_future_annotations(ctx.map.source),
        ..FreeLoads::default()
    };
    for stmt in &class.body {
        walker.visit_stmt(stmt);
    }
    if walker.refused {
        return None;
    }
    let mut item = Item::blank(class.range(), Kind::Other, OriginRole::Folded);
    item.defs.push(Ident::from(class.name.as_str()));
    let mut now: Vec<&Expr> = class.decorator_list.iter().map(|d| &d.expression).collect();
    if let Some(args) = class.arguments.as_deref() {
        now.extend(args.args.iter());
        now.extend(args.keywords.iter().map(|k| &k.value));
    }
    let compiled = scoped(
        &ctx.scope.globals,
        &mut item,
        test,
        now,
        walker.loads,
        class.name.as_str(),
    )?;
    let line = ctx.map.line(class.range().start());
    item.label = Some(format!("the nested class `{}` (line {line})", class.name));
    item.fold = Ok(Piece::CompiledClass(class, std::rc::Rc::new(compiled)));
    Some(item)
}

/// What both kinds of statement need in the check: `(code, cells, globals)`, the text of the
/// code object the compiler makes of the statement (nested in a function named after the test,
/// whose parameters are the test's locals the code reads), of the check's cells of those locals by
/// name, and of the function's globals.
fn parts(
    ctx: &Ctx,
    map: &Aliases,
    what: &str,
    name: &str,
    (line_start, line): (usize, u32),
    end: ruff_text_size::TextSize,
    compiled: &Compiled,
) -> Result<(String, String, String), Reason> {
    let segment = universal_newlines(&ctx.map.source[line_start..usize::from(end)]);
    let source = format!(
        "def {}({}):\n{segment}\n",
        compiled.outer,
        compiled.test_names.join(", ")
    );
    let source = match line {
        0..=2 => py_string(&source),
        _ => format!("\"\\n\" * {} + {}", line - 2, py_string(&source)),
    };
    // The test module's names the fold writes in place, added to a copy of the namespace.
    let mut extras = Vec::new();
    for global in &compiled.global_names {
        let unmade = |why: &str| {
            crate::rules::Statements::NestedDefinition.because(format!(
                "the nested {what} `{name}` on line {line} reads `{global}`, {why}"
            ))
        };
        match ctx.scope.globals.get(global.as_str()) {
            // One object in pytest that every reader shares; written out, a new one per creation.
            Some(Global::Constant { source, .. }) if !names::is_immutable_literal(source) => {
                return Err(unmade(
                    "a mutable constant of the test file, one object that pytest's code shares",
                ))
            }
            Some(Global::SolutionName { .. } | Global::SolutionModule) | None => {}
            Some(_) if map.contains_key(global.as_str()) => {}
            Some(_) => {
                return Err(unmade(
                    "a name of the test module that the evaluation namespace does not have",
                ))
            }
        }
        match map.get(global) {
            None => {}
            Some(Replacement::Value(r)) if r.text == *global => {}
            Some(Replacement::Value(r)) => extras.push(format!("\"{global}\": {}", r.text)),
            Some(Replacement::SolutionModule(Some(bound))) if &**bound == global.as_str() => {}
            Some(Replacement::SolutionModule(Some(bound))) => {
                extras.push(format!("\"{global}\": {bound}"))
            }
            Some(Replacement::SolutionModule(None)) => {
                return Err(crate::rules::Statements::NestedDefinition.because(format!(
                    "the nested {what} `{name}` on line {line} reads `{global}`, the solution module, which this stage has no name for"
                )))
            }
        }
    }
    let globals = if extras.is_empty() {
        "_bx_b.globals()".to_string()
    } else {
        format!("{{**_bx_b.globals(), {}}}", extras.join(", "))
    };
    let cells = if compiled.test_names.is_empty() {
        "{}".to_string()
    } else {
        format!(
            "(lambda _bx_l: _bx_b.dict(_bx_b.zip(_bx_l.__code__.co_freevars, _bx_l.__closure__ or ())))(lambda: ({},))",
            compiled.test_names.join(", ")
        )
    };
    let code = format!(
        "[_bx_x for _bx_o in _bx_b.compile({source}, \"<nested {what}>\", \"exec\", {}, True).co_consts if _bx_b.isinstance(_bx_o, _bx_t.CodeType) and _bx_o.co_name == \"{}\" for _bx_x in _bx_o.co_consts if _bx_b.isinstance(_bx_x, _bx_t.CodeType) and _bx_x.co_name == \"{name}\"][0]",
        future_flags(ctx.map.source),
        compiled.outer
    );
    Ok((code, cells, globals))
}

/// The closure of the code `_bx_c` from the cells `_bx_k`: an empty cell for a local the check
/// never binds.
const CLOSURE: &str = "_bx_b.tuple(_bx_b.map(lambda _bx_n: _bx_k[_bx_n] if _bx_n in _bx_k else _bx_t.CellType(), _bx_c.co_freevars)) or None";

fn render(ctx: &Ctx, map: &Aliases, e: &Expr) -> Result<String, Reason> {
    names::render(e, map, ctx.map)
        .map(|r| r.text)
        .map_err(|c| c.describe())
}

/// `name := <the function object the `def` makes, decorated>` (see the module's docs).
pub(super) fn function(
    ctx: &Ctx,
    map: &Aliases,
    def: &ast::StmtFunctionDef,
    compiled: &Compiled,
) -> Result<String, Reason> {
    let at = keyword_line(ctx, def.range.start(), def.decorator_list.first()).ok_or_else(|| {
        crate::rules::Statements::NestedDefinition.because(format!(
            "the nested function `{}` on line {} does not start its line",
            def.name,
            ctx.map.line(def.range.start())
        ))
    })?;
    let (code, cells, globals) = parts(
        ctx,
        map,
        "function",
        def.name.as_str(),
        at,
        def.range.end(),
        compiled,
    )?;
    let p = &def.parameters;
    let mut defaults = Vec::new();
    for q in p.posonlyargs.iter().chain(p.args.iter()) {
        if let Some(d) = &q.default {
            defaults.push(render(ctx, map, d)?);
        }
    }
    let defaults = match defaults.len() {
        0 => "None".to_string(),
        _ => format!("({},)", defaults.join(", ")),
    };
    let mut kwdefaults = Vec::new();
    for q in p.kwonlyargs.iter() {
        if let Some(d) = &q.default {
            kwdefaults.push(format!(
                "\"{}\": {}",
                q.parameter.name,
                render(ctx, map, d)?
            ));
        }
    }
    let mut made = format!("_bx_t.FunctionType(_bx_c, {globals}, None, {defaults}, {CLOSURE})");
    if !kwdefaults.is_empty() {
        made = format!(
            "(lambda _bx_f: [_bx_b.setattr(_bx_f, \"__kwdefaults__\", {{{}}})] and _bx_f)({made})",
            kwdefaults.join(", ")
        );
    }
    let text = format!(
        "(lambda _bx_b, _bx_t: (lambda _bx_c, _bx_k: {made})({code}, {cells}))(__import__(\"builtins\"), __import__(\"types\"))"
    );
    let text = super::definitions::decorate(ctx, map, &def.decorator_list, text)?;
    Ok(format!("{} := {text}", def.name))
}

/// `name := <the class the `class` statement makes, decorated>`: `__build_class__` given
/// a function of the class body's code, as the statement's own code calls it (see the module's
/// docs).
pub(super) fn class(
    ctx: &Ctx,
    map: &Aliases,
    class: &ast::StmtClassDef,
    compiled: &Compiled,
) -> Result<String, Reason> {
    let at =
        keyword_line(ctx, class.range.start(), class.decorator_list.first()).ok_or_else(|| {
            crate::rules::Statements::NestedDefinition.because(format!(
                "the nested class `{}` on line {} does not start its line",
                class.name,
                ctx.map.line(class.range.start())
            ))
        })?;
    let (code, cells, globals) = parts(
        ctx,
        map,
        "class",
        class.name.as_str(),
        at,
        class.range.end(),
        compiled,
    )?;
    let mut args = vec![
        format!("_bx_t.FunctionType(_bx_c, {globals}, None, None, {CLOSURE})"),
        format!("\"{}\"", class.name),
    ];
    if let Some(a) = class.arguments.as_deref() {
        for b in a.args.iter() {
            args.push(render(ctx, map, b)?);
        }
        for k in a.keywords.iter() {
            let Some(arg) = &k.arg else {
                return Err(crate::rules::Statements::NestedDefinition.because(format!(
                    "the nested class `{}` passes `**` keywords",
                    class.name
                )));
            };
            args.push(format!("{arg}={}", render(ctx, map, &k.value)?));
        }
    }
    let text = format!(
        "(lambda _bx_b, _bx_t: (lambda _bx_c, _bx_k: _bx_b.__build_class__({}))({code}, {cells}))(__import__(\"builtins\"), __import__(\"types\"))",
        args.join(", ")
    );
    let text = super::definitions::decorate(ctx, map, &class.decorator_list, text)?;
    Ok(format!("{} := {text}", class.name))
}
