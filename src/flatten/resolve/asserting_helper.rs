//! A test-file helper whose body asserts, called as a statement of the test: each of its asserts
//! as a check (`helper_check`).

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};
use ruff_text_size::Ranged;

use super::super::Ctx;
use super::globals::Lookup;
use super::helper_lambda::{check_plain_body, check_signature, lambda_of, lambda_params};
use super::{shadows_import, FunctionFacts};
use crate::model::Origin;
use crate::module::BoundNames;
use crate::names;
use crate::rules::{Helpers, Reason, Statements};

/// A piece of a helper's body before the assert a call of it stands for (`helper_check`).
enum CheckStep<'d> {
    /// `y = g(x)` (`Some("y")`) or an expression evaluated for its effect (`None`).
    Step(Option<&'d str>, &'d Expr),
    /// An `assert` the body makes before: its test.
    Assert(&'d Expr),
    /// A standard-library import: the local it binds, and the same object spelled through
    /// `__import__`.
    Import(&'d str, String),
}

/// The pieces of a helper's body up to its top-level assert `upto`, or why no call of `def` can
/// stand for that assert.
fn check_steps<'d>(
    ctx: &Ctx,
    def: &'d StmtFunctionDef,
    upto: Option<&ruff_python_ast::StmtAssert>,
) -> Result<Vec<CheckStep<'d>>, Reason> {
    let mut body: &[Stmt] = &def.body;
    if let Some(Stmt::Expr(e)) = body.first() {
        if matches!(e.value.as_ref(), Expr::StringLiteral(_)) && body.len() > 1 {
            body = &body[1..];
        }
    }
    let mut out = Vec::new();
    for statement in body {
        let refused = || {
            Helpers::HelperStatementNotReplayable.because(format!(
                "its body runs `{}` (line {}){}, which is not a plain statement one expression can replay",
                ctx.map.snippet(statement.range()),
                ctx.map.line(statement.range().start()),
                if upto.is_some() { " before this assert" } else { "" }
            ))
        };
        match statement {
            Stmt::Assert(a) if upto.is_some_and(|u| a.range == u.range) => {
                out.push(CheckStep::Assert(&a.test));
                return Ok(out);
            }
            Stmt::Assert(a) => out.push(CheckStep::Assert(&a.test)),
            Stmt::Assign(a) => match a.targets.as_slice() {
                [Expr::Name(t)] => out.push(CheckStep::Step(Some(t.id.as_str()), &a.value)),
                _ => return Err(refused()),
            },
            Stmt::AnnAssign(a) => match (a.target.as_ref(), a.value.as_deref()) {
                (Expr::Name(t), Some(v)) => out.push(CheckStep::Step(Some(t.id.as_str()), v)),
                _ => return Err(refused()),
            },
            Stmt::Expr(e) => out.push(CheckStep::Step(None, &e.value)),
            Stmt::Pass(_) => {}
            Stmt::Import(i) if !shadows_import(ctx) => {
                for alias in &i.names {
                    let module = alias.name.as_str();
                    let bound = match &alias.asname {
                        Some(a) => a.as_str(),
                        None => module.split('.').next().unwrap_or(module),
                    };
                    let text =
                        names::stdlib_import(module, alias.asname.is_some()).ok_or_else(refused)?;
                    out.push(CheckStep::Import(bound, text));
                }
            }
            Stmt::ImportFrom(i) if i.level == 0 && !shadows_import(ctx) => {
                let module = i.module.as_ref().map(|m| m.id.as_str()).unwrap_or_default();
                for alias in &i.names {
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name).as_str();
                    let text = names::stdlib_from_import(module, alias.name.as_str())
                        .ok_or_else(refused)?;
                    out.push(CheckStep::Import(bound, text));
                }
            }
            _ => return Err(refused()),
        }
    }
    match upto {
        Some(_) => Err(Helpers::HelperAssertNested
            .because("the assert is not a top-level statement of its body")),
        None => Ok(out),
    }
}

/// A test-file helper whose body asserts (`def check(candidate): assert candidate(1) == 2; …`),
/// called as a statement of the test: for its top-level assert `upto`, the function written as
/// `(lambda params: (steps…, test_1)[-1] and … and (steps…, test_k)[-1])`, true exactly when
/// pytest, calling the `def`, reaches that assert and passes it (the asserts before it pass, as
/// `and` requires, each tested once; the steps run in order, in the call's own frame). Exact for
/// the reasons `helper_lambda` gives (its free names resolved as the test's reads, a signature
/// that runs nothing, no walrus, `yield` or recursion); the lambda is only ever called where the
/// test calls the helper, so nothing observes that it is not the `def`.
/// `upto` `None`: the whole call, as a check that every assert of the helper passes, for a call
/// the test makes before the one being decided (`(lambda c: c(1) == 2 and (steps…, True)[-1])`).
pub(in crate::flatten) fn helper_check(
    ctx: &Ctx,
    def: &StmtFunctionDef,
    upto: Option<&ruff_python_ast::StmtAssert>,
    origins: &mut Vec<Origin>,
    solution_names: &mut Vec<String>,
) -> Result<names::Rendered, Reason> {
    let name = def.name.as_str();
    if def.is_async || def.type_params.is_some() || !def.decorator_list.is_empty() {
        return Err(Helpers::HelperNotPlainFunction.because("it is not a plain function"));
    }
    let steps = check_steps(ctx, def, upto)?;
    check_signature(ctx, def)?;
    for d in def.parameters.iter().filter_map(|q| q.default()) {
        if let ruff_python_ast::Expr::Name(n) = d {
            if let Some(crate::module::Global::SolutionName { name }) =
                ctx.scope.globals.get(n.id.as_str())
            {
                solution_names.push(name.clone());
            }
        }
    }
    let params = lambda_params(ctx, &def.parameters);
    let mut param_names: Vec<&str> = def.parameters.iter().map(|q| q.name().as_str()).collect();
    // A name the body binds anywhere (even after this assert) is the function's local from its
    // first line: read before it is bound, it raises, whatever the module binds under that name.
    let mut bound = BoundNames::default();
    for stmt in &def.body {
        bound.visit_stmt(stmt);
    }
    let own = FunctionFacts::of(def);
    if own.declares {
        return Err(Helpers::HelperDeclaresGlobal
            .because("its body declares a name `global` or `nonlocal`"));
    }
    let mut exprs: Vec<&Expr> = Vec::new();
    for s in &steps {
        match s {
            CheckStep::Step(t, e) => {
                param_names.extend(*t);
                exprs.push(e);
            }
            CheckStep::Assert(e) => exprs.push(e),
            CheckStep::Import(t, _) => param_names.push(t),
        }
    }
    check_plain_body(&exprs)?;
    let mut facts = names::Facts::default();
    for e in &exprs {
        facts.loads.extend(names::Facts::of(e).loads);
    }
    if let Some(late) = facts.loads.iter().find(|l| {
        bound.names.iter().any(|b| *b == l.name.as_str()) && !param_names.contains(&l.name.as_str())
    }) {
        return Err(Helpers::HelperBindsLate.because(format!(
            "its body binds `{}` after this assert, which makes it the function's local, unbound where the assert reads it",
            late.name
        )));
    }
    let mut lookup = Lookup {
        ctx,
        origins,
        solution_names,
        helpers: vec![name.to_string()],
    };
    let (body_map, mut introduced) = lookup.body_names(&facts, &param_names)?;
    if let Some(clash) = introduced
        .iter()
        .find(|n| param_names.contains(&n.as_str()))
    {
        return Err(Helpers::HelperNameClash.because(format!(
            "its parameter or local `{clash}` would hide the `{clash}` its body reads"
        )));
    }
    use ruff_python_ast::OperatorPrecedence as Prec;
    let render = |e: &Expr| {
        names::render(e, &body_map, ctx.map).map_err(|_| {
            Statements::CapturedName
                .because("its body cannot be rewritten without a name being captured")
        })
    };
    // A bare tuple is the one value a tuple element must wrap.
    let element = |r: names::Rendered| {
        if r.prec == Prec::None {
            format!("({})", r.text)
        } else {
            r.text
        }
    };
    let mut groups: Vec<String> = Vec::new();
    let mut pieces: Vec<String> = Vec::new();
    for s in &steps {
        match s {
            CheckStep::Step(target, e) => {
                let text = element(render(e)?);
                pieces.push(match target {
                    Some(t) => format!("{t} := {text}"),
                    None => text,
                });
            }
            CheckStep::Import(target, text) => {
                pieces.push(format!("{target} := {text}"));
                introduced.push("__import__".to_string());
            }
            CheckStep::Assert(e) => {
                let r = render(e)?;
                groups.push(if !pieces.is_empty() {
                    pieces.push(element(r));
                    format!("({})[-1]", std::mem::take(&mut pieces).join(", "))
                } else if r.prec < Prec::And {
                    // An operand of `and` that binds more loosely (`or`, `if`/`else`, `lambda`).
                    format!("({})", r.text)
                } else {
                    r.text
                });
            }
        }
    }
    // The statements after the last assert, for a whole call: they run, and may raise.
    if !pieces.is_empty() {
        pieces.push("True".into());
        groups.push(format!("({})[-1]", pieces.join(", ")));
    }
    if groups.is_empty() {
        groups.push("True".into());
    }
    // Every group but the last is made a real bool, its truth tested once as pytest tests it (a
    // false operand of `and` would be the lambda's value, tested again by the evaluator).
    let last = groups.len() - 1;
    for g in &mut groups[..last] {
        *g = format!("not not ({g})");
    }
    let lambda = lambda_of(&params, &groups.join(" and "), introduced);
    Ok(super::helper_lambda::named_as_def(
        ctx,
        def,
        &exprs,
        &param_names,
        lambda,
    ))
}
