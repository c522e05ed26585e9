//! Definitions a test makes in its body, written as the objects their statements make: a nested
//! `def` (a lambda given the `def`'s names) and a nested `class` (`types.new_class`). See
//! `items::nested_def` for when that is exact.

use ruff_python_ast::{self as ast, Expr, OperatorPrecedence as Prec};

use super::resolve::Aliases;
use super::Ctx;
use crate::names;
use crate::rules::Reason;

fn render(ctx: &Ctx, map: &Aliases, e: &Expr) -> Result<String, Reason> {
    names::render(e, map, ctx.map)
        .map(|r| r.text)
        .map_err(|c| c.describe())
}

/// `D1(D2(text))`: the decorators, evaluated first (top to bottom), applied bottom up.
pub(super) fn decorate(
    ctx: &Ctx,
    map: &Aliases,
    decorators: &[ast::Decorator],
    mut text: String,
) -> Result<String, Reason> {
    for d in decorators.iter().rev() {
        let callee = names::render(&d.expression, map, ctx.map).map_err(|c| c.describe())?;
        text = if callee.prec < Prec::CallAttribute {
            format!("({})({text})", callee.text)
        } else {
            format!("{}({text})", callee.text)
        };
    }
    Ok(text)
}

/// A nested `class` (see `items::nested_class`): `name := D(types.new_class(name, bases,
/// keywords, body))`, the body storing what the class statement's body stores, in order,
/// through the namespace's own `__setitem__` (a metaclass's `__prepare__` sees each store).
pub(super) fn class(
    ctx: &Ctx,
    map: &Aliases,
    class: &ast::StmtClassDef,
    qualname: &str,
) -> Result<String, Reason> {
    let unreplayable = || {
        crate::rules::Statements::NestedDefinition.because(format!(
            "the nested class `{}` on line {} cannot be written as an expression",
            class.name,
            ctx.map.line(class.range.start())
        ))
    };
    let members = super::items::class_members(class).ok_or_else(unreplayable)?;
    let mut bases = Vec::new();
    let mut keywords = Vec::new();
    if let Some(args) = class.arguments.as_deref() {
        for b in args.args.iter() {
            bases.push(render(ctx, map, b)?);
        }
        for k in args.keywords.iter() {
            let Some(arg) = &k.arg else {
                return Err(unreplayable());
            };
            keywords.push(format!("\"{arg}\": {}", render(ctx, map, &k.value)?));
        }
    }
    let bases = match bases.len() {
        0 => "()".to_string(),
        1 => format!("({},)", bases[0]),
        _ => format!("({})", bases.join(", ")),
    };
    let line = ctx.map.line(class.range.start());
    let first_line = class
        .decorator_list
        .first()
        .map_or(line, |d| ctx.map.line(d.range.start()));
    let mut stores = vec![
        "_bx_ns.__setitem__(\"__module__\", __name__)".to_string(),
        format!("_bx_ns.__setitem__(\"__qualname__\", \"{qualname}\")"),
        // Python 3.13's compiler stores the first line too.
        format!("*([_bx_ns.__setitem__(\"__firstlineno__\", {first_line})] if __import__(\"sys\").version_info >= (3, 13) else [])"),
    ];
    for member in members {
        let (name, text) = match member {
            super::items::ClassMember::Value(name, value) => (name, render(ctx, map, value)?),
            super::items::ClassMember::Method(def) => (
                def.name.as_str(),
                function(ctx, map, def, &format!("{qualname}.{}", def.name))?,
            ),
        };
        stores.push(format!("_bx_ns.__setitem__(\"{name}\", {text})"));
    }
    // … and, in 3.13, the attributes its methods assign through `self` (none: a method's body
    // assigns names only).
    stores.push("*([_bx_ns.__setitem__(\"__static_attributes__\", ())] if __import__(\"sys\").version_info >= (3, 13) else [])".to_string());
    let body = format!("lambda _bx_ns: [{}]", stores.join(", "));
    // What the body creates is `Class.<lambda>`: named by the check's renamer, when it creates any.
    let body = if super::qualnames::class_creates_named(class) {
        format!(
            "{}({body}, \"{}\", \"{qualname}\", \".\")",
            super::qualnames::NAME,
            class.name
        )
    } else {
        body
    };
    let mut text = format!(
        "__import__(\"types\").new_class(\"{}\", {bases}, {{{}}}, {body})",
        class.name,
        keywords.join(", "),
    );
    text = decorate(ctx, map, &class.decorator_list, text)?;
    Ok(text)
}

/// The function object a `def` makes, decorated, as an expression (see `items::nested_def`).
pub(super) fn function(
    ctx: &Ctx,
    map: &Aliases,
    def: &ast::StmtFunctionDef,
    qualname: &str,
) -> Result<String, Reason> {
    let unreplayable = || {
        crate::rules::Statements::NestedDefinition.because(format!(
            "the nested function `{}` on line {} cannot be written as an expression",
            def.name,
            ctx.map.line(def.range.start())
        ))
    };
    let (steps, value) = super::items::def_body(def).ok_or_else(unreplayable)?;
    // Defaults are evaluated where the `def` runs, in the test's scope.
    let with_default = |q: &ast::ParameterWithDefault| -> Result<String, Reason> {
        Ok(match &q.default {
            Some(d) => format!("{}={}", q.parameter.name, render(ctx, map, d)?),
            None => q.parameter.name.to_string(),
        })
    };
    let p = &def.parameters;
    let mut params: Vec<String> = p
        .posonlyargs
        .iter()
        .map(with_default)
        .collect::<Result<_, _>>()?;
    if !params.is_empty() {
        params.push("/".into());
    }
    for q in p.args.iter() {
        params.push(with_default(q)?);
    }
    match &p.vararg {
        Some(v) => params.push(format!("*{}", v.name)),
        None if !p.kwonlyargs.is_empty() => params.push("*".into()),
        None => {}
    }
    for q in p.kwonlyargs.iter() {
        params.push(with_default(q)?);
    }
    if let Some(k) = &p.kwarg {
        params.push(format!("**{}", k.name));
    }
    // The body reads its own parameters and locals, never what the fold substitutes for a
    // name of the test.
    let mut inner = map.clone();
    for own in super::items::def_locals(def) {
        inner.remove(&own);
    }
    inner.remove(def.name.as_str());
    let render = |e: &Expr| -> Result<String, Reason> {
        let r = names::render(e, &inner, ctx.map).map_err(|c| c.describe())?;
        Ok(if r.prec == ruff_python_ast::OperatorPrecedence::None {
            format!("({})", r.text)
        } else {
            r.text
        })
    };
    let last = match value {
        Some(v) => render(v)?,
        None => "None".to_string(),
    };
    let body = if steps.is_empty() {
        last
    } else {
        let mut parts = Vec::new();
        for (target, e) in &steps {
            let text = render(e)?;
            parts.push(match target {
                Some(t) => format!("{t} := {text}"),
                None => text,
            });
        }
        parts.push(last);
        format!("({})[-1]", parts.join(", "))
    };
    let lambda = if params.is_empty() {
        format!("lambda: {body}")
    } else {
        format!("lambda {}: {body}", params.join(", "))
    };
    let name = def.name.as_str();
    // What the function creates is named after it too: by the check's renamer
    // (`qualnames::with_qualnames` binds it) when it creates any lambda or generator.
    let mut text = if super::qualnames::def_creates_named(def) {
        format!(
            "{}({lambda}, \"{name}\", \"{qualname}\")",
            super::qualnames::NAME
        )
    } else {
        format!(
            "(lambda _bx_f, _bx_b: [_bx_b.setattr(_bx_f, \"__code__\", _bx_f.__code__.replace(co_name=\"{name}\", co_qualname=\"{qualname}\")), _bx_b.setattr(_bx_f, \"__name__\", \"{name}\"), _bx_b.setattr(_bx_f, \"__qualname__\", \"{qualname}\")] and _bx_f)({lambda}, __import__(\"builtins\"))"
        )
    };
    text = decorate(ctx, map, &def.decorator_list, text)?;
    Ok(text)
}
