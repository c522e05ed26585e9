//! A test-file helper the assertion only calls whose body a lambda cannot hold (`if`, loops,
//! `try`, `yield`, several returns), made where the assertion
//! calls it from its own source, as the module-level `def` statement makes it.
//!
//! Exact because, as for `helper_lambda`, the function object is only ever called, at once where
//! it is created, and creating it runs nothing (no decorators; defaults immutable literals or a
//! snapshot of the solution's name; annotations names or strings, which the `def` evaluated at
//! import); and beyond the lambda's reasons:
//! - its code is the compiler's own of the `def`'s source text, at its line, at module level: the
//!   same scopes (no closure; every free name global), names, docstring and line numbers as pytest's
//!   compile of the test module. pytest rewrites only `assert` statements: a body with an `assert`
//!   anywhere is refused (those are checks of the call, `helper_check`'s), and so are `global` and
//!   `nonlocal` (writes the fold does not see);
//! - its globals are the evaluation namespace (the test module's), every free name of the body
//!   resolved as the test's own reads are (the solution's names, builtins); a name the fold writes
//!   in place (a standard-library import, another helper) is added to a copy of the namespace. The
//!   namespace holds the solution's names, not every name of the test module: a body that reads
//!   its globals by name (`globals()`, `exec`, `eval`) is refused; `locals()`, `vars()`, `dir()`,
//!   `super()` answer from the compiled code's own frame, as from the `def`'s.

use ruff_python_ast::{Expr, StmtFunctionDef};
use ruff_text_size::Ranged;

use super::globals::Lookup;
use crate::names::{self, Facts, Replacement};
use crate::rules::{Helpers, Reason};

impl Lookup<'_, '_, '_, '_> {
    /// The helper `name` (its `def`) made from its source where the assertion calls it.
    pub(super) fn compiled_helper(
        &mut self,
        name: &str,
        def: &StmtFunctionDef,
    ) -> Result<names::Rendered, Reason> {
        let ctx = self.ctx;
        if def.is_async || def.type_params.is_some() || !def.decorator_list.is_empty() {
            return Err(Helpers::HelperNotPlainFunction.because("it is not a plain function"));
        }
        super::helper_lambda::check_signature(ctx, def)?;
        let source = ctx.map.source;
        let start = usize::from(def.range.start());
        if start > 0 && !source[..start].ends_with(['\n', '\r']) {
            return Err(Helpers::HelperBodyNotExpression
                .because("its `def` does not start its line at module level"));
        }
        let params: Vec<String> = def
            .parameters
            .iter()
            .map(|p| p.name().to_string())
            .collect();
        let Some(loads) = crate::flatten::compile_source::free_loads(
            &params,
            &def.body,
            crate::flatten::compile_source::has_future_annotations(source),
        ) else {
            return Err(Helpers::HelperBodyNotExpression.because(
                "its body asserts (pytest rewrites its asserts) or declares a name `global` or `nonlocal` (its writes reach outside it)",
            ));
        };
        // What reads the function's globals or frame by name (`globals()`, `exec`, `eval`, …)
        // would see the namespace, which holds the solution's names, not every name of the test
        // module.
        let frame = |n: &str| crate::flatten::compile_source::GLOBALS_READERS.contains(&n);
        if let Some(n) = loads
            .iter()
            .find(|l| frame(l.name.as_str()) && !ctx.scope.globals.contains_key(l.name.as_str()))
        {
            return Err(Helpers::HelperReadsFrame.because(format!(
                "it calls `{}`, whose answer depends on the function's own globals or frame",
                n.name
            )));
        }
        // Its own frame's (`locals()`, `super()`, …) are the compiled code's, as pytest's code's.
        let own_frame = |n: &str| {
            crate::flatten::compile_source::FRAME.contains(&n) && !ctx.scope.globals.contains_key(n)
        };
        let facts = Facts {
            loads: loads
                .into_iter()
                .filter(|l| !own_frame(l.name.as_str()))
                .collect(),
            ..Facts::default()
        };
        self.push_default_names(def);
        self.helpers.push(name.to_string());
        let param_refs: Vec<&str> = params.iter().map(String::as_str).collect();
        let body = self.body_names(&facts, &param_refs);
        self.helpers.pop();
        let (body_map, _) = body?;
        let mut extras = Vec::new();
        let mut free = vec!["__import__".to_string()];
        let mut globals: Vec<&str> = facts.loads.iter().map(|l| l.name.as_str()).collect();
        globals.sort_unstable();
        globals.dedup();
        for g in globals {
            match body_map.get(g) {
                None => {}
                Some(Replacement::Value(r)) if r.text == g => {}
                Some(Replacement::Value(r)) => {
                    extras.push(format!("\"{g}\": {}", r.text));
                    free.extend(r.free.iter().cloned());
                }
                Some(Replacement::SolutionModule(Some(b))) if &**b == g => {}
                Some(Replacement::SolutionModule(Some(b))) => {
                    extras.push(format!("\"{g}\": {b}"));
                    free.push(b.to_string());
                }
                Some(Replacement::SolutionModule(None)) => {
                    return Err(Helpers::HelperBodyNotExpression
                        .because(format!("its body reads the solution module `{g}`")))
                }
            }
        }
        let globals = if extras.is_empty() {
            "_bx_b.globals()".to_string()
        } else {
            format!("{{**_bx_b.globals(), {}}}", extras.join(", "))
        };
        // Defaults as the `def` wrote them: immutable literals, or a name of the solution the
        // evaluator binds (`check_signature`).
        let text_of = |d: &Expr| ctx.map.text(d.range()).to_string();
        let p = &def.parameters;
        let defaults: Vec<String> = p
            .posonlyargs
            .iter()
            .chain(p.args.iter())
            .filter_map(|q| q.default.as_deref().map(text_of))
            .collect();
        let kwdefaults: Vec<String> = p
            .kwonlyargs
            .iter()
            .filter_map(|q| {
                q.default
                    .as_deref()
                    .map(|d| format!("\"{}\": {}", q.parameter.name, text_of(d)))
            })
            .collect();
        for d in p
            .iter_non_variadic_params()
            .filter_map(|q| q.default.as_deref())
        {
            if let Expr::Name(n) = d {
                free.push(n.id.to_string());
            }
        }
        let defaults = match defaults.len() {
            0 => "None".to_string(),
            _ => format!("({},)", defaults.join(", ")),
        };
        let line = ctx.map.line(def.range.start());
        let segment = crate::flatten::compile_source::universal_newlines(
            &source[start..usize::from(def.range.end())],
        );
        let compiled = crate::flatten::compile_source::py_string(&format!("{segment}\n"));
        let compiled = match line {
            0 | 1 => compiled,
            _ => format!("\"\\n\" * {} + {compiled}", line - 1),
        };
        let flags = crate::flatten::compile_source::future_flags(source);
        let mut made = format!(
            "_bx_t.FunctionType([_bx_x for _bx_x in _bx_b.compile({compiled}, \"<helper>\", \"exec\", {flags}, True).co_consts if _bx_b.isinstance(_bx_x, _bx_t.CodeType) and _bx_x.co_name == \"{name}\"][0], {globals}, None, {defaults}, None)"
        );
        if !kwdefaults.is_empty() {
            made = format!(
                "(lambda _bx_f: [_bx_b.setattr(_bx_f, \"__kwdefaults__\", {{{}}})] and _bx_f)({made})",
                kwdefaults.join(", ")
            );
        }
        free.sort_unstable();
        free.dedup();
        // Made once per check (the namespace is the check's own), as the `def` runs once: every
        // call then runs the same function, whose code objects are the same.
        Ok(names::Rendered {
            text: format!(
                "(lambda _bx_b, _bx_t: _bx_b.globals().get(\"_bx_hc_{name}\") or _bx_b.globals().setdefault(\"_bx_hc_{name}\", {made}))(__import__(\"builtins\"), __import__(\"types\"))"
            ),
            prec: ruff_python_ast::OperatorPrecedence::CallAttribute,
            free,
        })
    }
}
