//! A test-file helper called where the assertion calls it, written as a lambda.

use crate::sort::SharedSort as _;
use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};
use ruff_text_size::Ranged;

use super::super::Ctx;
use super::aliases::Aliases;
use super::globals::Lookup;
use super::{module_attr, Resolution};
use crate::module::Global;
use crate::names::{self, Replacement};
use crate::rules::{Helpers, Reason, Statements};

/// How deep helpers may call helpers before the extractor gives up.
const MAX_HELPER_DEPTH: usize = 8;

/// Builtins whose answer depends on the function's globals or frame, which a lambda evaluated in
/// the solution's namespace does not share with the test file's `def`.
const FRAME_BUILTINS: &[&str] = &[
    "globals",
    "locals",
    "vars",
    "dir",
    "eval",
    "exec",
    "super",
    "breakpoint",
    "compile",
];

/// A step of a helper's body before its `return`: `y = g(x)` (the name and the value) or an
/// expression evaluated for its effect.
type Step<'d> = (Option<&'d str>, &'d Expr);

impl Lookup<'_, '_, '_, '_> {
    /// A test-file helper `def name(params): return expr`, called where the assertion calls it, as
    /// `(lambda params: expr)`, its free names resolved as the assertion's are. Exact because:
    /// - the function object is only ever called (`called`: no read of `name` passes it anywhere),
    ///   and called at once where it is created: nothing can observe what differs between a `def`
    ///   and a lambda (`__name__`, `__qualname__`, `__module__`, `__code__.co_name`, `__doc__`,
    ///   annotations);
    /// - creating the lambda runs nothing and cannot raise: no decorators, and defaults are
    ///   immutable literals (a lambda evaluates them per creation, a `def` once; for an immutable
    ///   literal the value is the same), annotations only names or strings (the `def` evaluated
    ///   them at import);
    /// - the call binds arguments by the same parameter list and evaluates the same expression
    ///   once, in one frame, as the `def` does; a module-level `def` has no closure, and its
    ///   globals are the test module's, which is why every free name of the body is resolved
    ///   exactly as the test's own reads are (solution names, constants, standard-library imports,
    ///   other helpers by this same rule), and names that depend on whose globals or frame these
    ///   are (`globals()`, `__name__`, `super()`) are refused;
    /// - no `yield`, `await` or walrus (the body is a plain expression), no recursion.
    pub(super) fn helper_lambda(
        &mut self,
        name: &str,
        def: &StmtFunctionDef,
    ) -> Result<names::Rendered, Reason> {
        if self.helpers.len() >= MAX_HELPER_DEPTH {
            return Err(Helpers::HelpersTooDeep.because("helpers call helpers too deeply"));
        }
        if def.is_async || def.type_params.is_some() {
            return Err(Helpers::HelperNotPlainFunction.because("it is not a plain function"));
        }
        let (steps, value) = helper_steps(def)?;
        check_signature(self.ctx, def)?;
        self.push_default_names(def);
        let params = lambda_params(self.ctx, &def.parameters);
        let mut param_names: Vec<&str> = def.parameters.iter().map(|q| q.name().as_str()).collect();
        param_names.extend(steps.iter().filter_map(|(t, _)| *t));
        let exprs: Vec<&Expr> = steps.iter().map(|(_, e)| *e).chain(value).collect();
        check_plain_body(&exprs)?;
        let mut facts = names::Facts::default();
        for e in &exprs {
            facts.loads.extend(names::Facts::of(e).loads);
        }
        self.helpers.push(name.to_string());
        let body = self.body_names(&facts, &param_names);
        self.helpers.pop();
        let (body_map, introduced) = body?;
        if let Some(clash) = introduced
            .iter()
            .find(|n| param_names.contains(&n.as_str()))
        {
            return Err(Helpers::HelperNameClash.because(format!(
                "its parameter or local `{clash}` would hide the `{clash}` its body reads"
            )));
        }
        let body_text = lambda_body(self.ctx, &body_map, &steps, value)?;
        let lambda = lambda_of(&params, &body_text, introduced);
        Ok(named_as_def(self.ctx, def, &exprs, &param_names, lambda))
    }

    /// The solution's names a helper's defaults read (`check_signature`), among those the tests
    /// reach.
    pub(super) fn push_default_names(&mut self, def: &StmtFunctionDef) {
        for d in def.parameters.iter().filter_map(|q| q.default()) {
            if let Expr::Name(n) = d {
                if let Some(Global::SolutionName { name }) =
                    self.ctx.scope.globals.get(n.id.as_str())
                {
                    self.solution_names.push(name.clone());
                }
            }
        }
    }

    /// Resolve every free name of a helper's body (not its parameters or locals) as the
    /// assertion's are: their spellings, and every name those spellings read.
    pub(super) fn body_names(
        &mut self,
        facts: &names::Facts,
        param_names: &[&str],
    ) -> Result<(Aliases, Vec<String>), Reason> {
        let ctx = self.ctx;
        let mut body_map = Aliases::default();
        let mut introduced: Vec<String> = Vec::new();
        for load in &facts.loads {
            let n = load.name.as_str();
            if param_names.contains(&n) {
                continue;
            }
            if self.helpers.iter().any(|h| h == n) {
                return Err(Helpers::HelperRecursion.because(format!(
                    "its body calls `{n}` back (recursion), which no single expression spells"
                )));
            }
            if FRAME_BUILTINS.contains(&n) {
                return Err(Helpers::HelperReadsFrame.because(format!(
                    "it calls `{n}`, whose answer depends on the function's own globals or frame"
                )));
            }
            let solution_module = matches!(body_map.get(n), Some(Replacement::SolutionModule(_)));
            if body_map.contains_key(n) && !(solution_module && load.attr.is_some()) {
                continue;
            }
            let resolution = if solution_module {
                let attr = load.attr.as_deref().unwrap_or_default();
                module_attr(ctx, n, attr, &mut body_map, self.solution_names)
            } else {
                let called = facts
                    .loads
                    .iter()
                    .filter(|l| l.name == load.name)
                    .all(|l| l.called);
                self.global(n, load.attr.as_deref(), called, &mut body_map)
            };
            if let Resolution::Unresolved(why, _) = resolution {
                return Err(why.map(|why| format!("its body reads `{n}`, and {why}")));
            }
            // A mutable constant is one object in pytest, shared by every call of the helper (and by
            // the test's own reads); written out inside the lambda it would be a new one per call.
            if let Some(Global::Constant { source, range, .. }) = ctx.scope.globals.get(n) {
                if !names::is_immutable_literal(source) {
                    return Err(Helpers::HelperSharedConstant.because(format!(
                        "its body reads the file's `{n}` (line {}), one object that every call shares, which written out in the helper would be a new one at each call",
                        ctx.map.line(range.start())
                    )));
                }
            }
            match body_map.get(n) {
                Some(Replacement::Value(v)) => introduced.extend(v.free.iter().cloned()),
                Some(Replacement::SolutionModule(b)) => {
                    introduced.extend(b.as_deref().map(str::to_string))
                }
                None => introduced.push(n.to_string()),
            }
        }
        Ok((body_map, introduced))
    }
}

/// A helper's body as steps and the value it returns: a docstring left out, then plain statements
/// and one `return`. `y = g(x)` is `y := g(x)` in the lambda, where `y` is its local as it was the
/// function's (a read before the assignment fails the same way).
fn helper_steps(def: &StmtFunctionDef) -> Result<(Vec<Step<'_>>, Option<&Expr>), Reason> {
    let mut body: &[Stmt] = &def.body;
    if let Some(Stmt::Expr(e)) = body.first() {
        if matches!(e.value.as_ref(), Expr::StringLiteral(_)) && body.len() > 1 {
            body = &body[1..];
        }
    }
    if body.iter().any(|s| matches!(s, Stmt::Assert(_))) {
        return Err(Helpers::HelperValueAsserts.because(
            "its body asserts: each of its asserts is a check of the call itself, and a call replayed before a later statement of the test is not written out",
        ));
    }
    let Some((Stmt::Return(ret), statements)) = body.split_last() else {
        return Err(Helpers::HelperBodyNotExpression.because(
            "its body does not end with its one `return` (only then is it written as a lambda)",
        ));
    };
    let mut steps: Vec<Step> = Vec::new();
    for statement in statements {
        match statement {
            Stmt::Assign(a) => match a.targets.as_slice() {
                [Expr::Name(t)] => steps.push((Some(t.id.as_str()), &a.value)),
                _ => {
                    return Err(Helpers::HelperBodyNotExpression
                        .because("its body assigns to something other than one name"))
                }
            },
            Stmt::AnnAssign(a) => match (a.target.as_ref(), a.value.as_deref()) {
                (Expr::Name(t), Some(v)) => steps.push((Some(t.id.as_str()), v)),
                _ => {
                    return Err(Helpers::HelperBodyNotExpression
                        .because("its body has an annotated assignment without a value"))
                }
            },
            Stmt::Expr(e) => steps.push((None, &e.value)),
            Stmt::Pass(_) => {}
            _ => {
                return Err(Helpers::HelperBodyNotExpression.because(
                    "its body holds a statement that is neither an assignment to a name nor an expression (only those are written as a lambda)",
                ))
            }
        }
    }
    Ok((steps, ret.value.as_deref()))
}

/// Creating the lambda must run nothing: annotations are absent, strings, or names bound at
/// import; defaults are immutable literals, or a name the file takes from the solution once and
/// never binds again (`check=is_valid`): the `def` read it at import, the evaluator's binding is
/// that same snapshot, and the lambda reads the binding, so the default is the same object.
pub(super) fn check_signature(ctx: &Ctx, def: &StmtFunctionDef) -> Result<(), Reason> {
    let snapshot_name = |d: &Expr| {
        match d {
        Expr::Name(n) => {
            matches!(
                ctx.scope.globals.get(n.id.as_str()),
                Some(Global::SolutionName { .. })
            ) && ctx
                .scope
                .solution_bindings
                .iter()
                .filter(|(_, b)| matches!(b, crate::model::Binding::Attr { name, .. } if name == n.id.as_str()))
                .count()
                == 1
        }
        _ => false,
    }
    };
    let annotation_ok = |a: Option<&Expr>| match a {
        None | Some(Expr::StringLiteral(_)) => true,
        Some(Expr::Name(n)) => {
            ctx.scope.globals.get(n.id.as_str()).is_some_and(|g| {
                matches!(
                    g,
                    Global::Import { .. } | Global::Helper { .. } | Global::SolutionName { .. }
                )
            }) || ruff_python_stdlib::builtins::is_python_builtin(n.id.as_str(), 14, false)
        }
        Some(_) => false,
    };
    if !annotation_ok(def.returns.as_deref())
        || !def.parameters.iter().all(|q| {
            annotation_ok(q.annotation())
                && q.default()
                    .is_none_or(|d| names::is_immutable_literal(d) || snapshot_name(d))
        })
    {
        return Err(Helpers::HelperSignatureRunsCode
            .because("its annotations or defaults run code when it is defined"));
    }
    Ok(())
}

/// The lambda's parameter list, as the `def` wrote it (without annotations).
pub(super) fn lambda_params(ctx: &Ctx, p: &ruff_python_ast::Parameters) -> Vec<String> {
    let with_default = |q: &ruff_python_ast::ParameterWithDefault| match &q.default {
        Some(d) => format!("{}={}", q.parameter.name, ctx.map.text(d.range())),
        None => q.parameter.name.to_string(),
    };
    let mut params: Vec<String> = p.posonlyargs.iter().map(with_default).collect();
    if !params.is_empty() {
        params.push("/".into());
    }
    params.extend(p.args.iter().map(with_default));
    match &p.vararg {
        Some(v) => params.push(format!("*{}", v.name)),
        None if !p.kwonlyargs.is_empty() => params.push("*".into()),
        None => {}
    }
    params.extend(p.kwonlyargs.iter().map(with_default));
    if let Some(k) = &p.kwarg {
        params.push(format!("**{}", k.name));
    }
    params
}

/// A lambda's body is one expression: no `yield`, `await` or walrus in it.
pub(super) fn check_plain_body(exprs: &[&Expr]) -> Result<(), Reason> {
    use ruff_python_ast::helpers::any_over_expr;
    for e in exprs {
        if any_over_expr(e, |e: &Expr| {
            matches!(
                e,
                Expr::Yield(_) | Expr::YieldFrom(_) | Expr::Await(_) | Expr::Named(_)
            )
        }) {
            return Err(
                Helpers::HelperYields.because("its body yields, awaits or binds a name with `:=`")
            );
        }
    }
    Ok(())
}

/// The lambda's body: the returned value, or `(y := …, …, value)[-1]` after steps.
fn lambda_body(
    ctx: &Ctx,
    body_map: &Aliases,
    steps: &[Step],
    value: Option<&Expr>,
) -> Result<String, Reason> {
    let render = |e: &Expr| {
        names::render(e, body_map, ctx.map)
            // A bare tuple is the one value that a lambda body or a tuple element must wrap.
            .map(|r| {
                if r.prec == ruff_python_ast::OperatorPrecedence::None {
                    format!("({})", r.text)
                } else {
                    r.text
                }
            })
            .map_err(|_| {
                Statements::CapturedName
                    .because("its body cannot be rewritten without a name being captured")
            })
    };
    let last = match value {
        Some(value) => render(value)?,
        None => "None".into(),
    };
    if steps.is_empty() {
        return Ok(last);
    }
    let mut pieces = Vec::new();
    for (target, e) in steps {
        let text = render(e)?;
        pieces.push(match target {
            Some(t) => format!("{t} := {text}"),
            None => text,
        });
    }
    pieces.push(last);
    Ok(format!("({})[-1]", pieces.join(", ")))
}

/// A helper's lambda given the `def`'s names by the check's renamer (`_bx_F(lambda, "helper",
/// "helper")`, bound by `qualnames::with_qualnames`) where its body creates a lambda or generator
/// whose name can be observed: pytest's call of the module-level `def` names it
/// `helper.<locals>.<lambda>`. The renamer runs before the lambda is called, once per creation.
pub(super) fn named_as_def(
    ctx: &Ctx,
    def: &StmtFunctionDef,
    exprs: &[&Expr],
    locals: &[&str],
    mut lambda: names::Rendered,
) -> names::Rendered {
    let builtin = |n: &str| {
        !locals.contains(&n)
            && !ctx.scope.globals.contains_key(n)
            && !ctx.scope.star_import
            && ruff_python_stdlib::builtins::is_python_builtin(n, 14, false)
    };
    if exprs
        .iter()
        .any(|e| crate::flatten::qualnames::observably_named(e, &builtin))
    {
        let name = def.name.as_str();
        lambda.text = format!(
            "{}({}, \"{name}\", \"{name}\")",
            crate::flatten::qualnames::NAME,
            lambda.text
        );
    }
    lambda
}

/// `(lambda params: body)`, whose free names are `free` (the names its body reads from outside).
pub(super) fn lambda_of(params: &[String], body: &str, mut free: Vec<String>) -> names::Rendered {
    free.sort_shared();
    free.dedup();
    let text = if params.is_empty() {
        format!("(lambda: {body})")
    } else {
        format!("(lambda {}: {body})", params.join(", "))
    };
    names::Rendered {
        text,
        prec: ruff_python_ast::OperatorPrecedence::Atomic,
        free,
    }
}
