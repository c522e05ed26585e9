//! What about the test as a whole keeps every one of its asserts from being kept: a skip, a
//! syntax error, a name with the extractor's reserved prefix, the module-level solution.

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use super::{resolve, Ctx, Test};
use crate::module::Global;
use crate::rules::{Helpers, Reason, Statements};
use crate::walk::{any_expr, find_expr, find_stmt, for_each_expr, Scope};

/// pytest calls that end the test as skipped or expected to fail, wherever they are in it.
const PYTEST_SKIPS: &[&str] = &["pytest.skip", "pytest.xfail", "pytest.importorskip"];

/// Why no assert of this test can be kept, if something about the whole test says so.
pub(super) fn whole_test_reason(ctx: &Ctx, test: &Test) -> Option<Reason> {
    let case = test.case;
    let f = case.func;
    if let Some(name) = reserved_name(f).or_else(|| {
        ctx.reserved_global
            .get_or_init(|| {
                ctx.scope
                    .globals
                    .keys()
                    .filter(|n| n.starts_with(RESERVED_PREFIX))
                    .min()
                    .cloned()
            })
            .clone()
    }) {
        return Some(Statements::ReservedName.because(format!(
            "the file uses `{name}`, a name the extractor reserves for its own temporaries (`{RESERVED_PREFIX}…`): a check could read the wrong value"
        )));
    }
    if let Some(error) = ctx.errors.iter().find(|e| {
        through_line_end(ctx, f.range).contains_inclusive(e.start())
            || case
                .param_ranges
                .iter()
                .any(|r| r.contains_inclusive(e.start()))
    }) {
        return Some(Statements::SyntaxErrorInTest.because(format!(
            "the test has a syntax error on line {}: what the parser recovered is not what was written",
            ctx.map.line(error.start())
        )));
    }
    if let Some(line) = ctx.scope.pytest_before_star {
        return Some(Statements::PytestBeforeStarImport.because(format!(
            "`pytest` is imported before `from solution import *` on line {line}, which may replace it with whatever the candidate exports: the test's marks, fixtures and raises blocks are then the candidate's"
        )));
    }
    if let Some((line, why)) = &ctx.scope.module_skip {
        return Some(
            why.clone()
                .map(|w| format!("{w} (line {line}): pytest may skip every test of the file")),
        );
    }
    if let Some(call) = find_call(f, |e| {
        ctx.scope
            .pytest_path(e)
            .is_some_and(|p| PYTEST_SKIPS.contains(&p.as_str()))
    }) {
        return Some(Statements::TestCallsSkip.because(format!(
            "the test calls `{}` on line {}: pytest then reports the whole test skipped or xfailed, so none of its asserts is a passing check",
            ctx.map.snippet(call),
            ctx.map.line(call.start())
        )));
    }
    if let Some(raise) = raises_skip(f) {
        return Some(Statements::TestRaisesSkip.because(format!(
            "the test raises `{}` on line {}: pytest then reports the whole test skipped, so none of its checks is a passing check",
            ctx.map.snippet(raise),
            ctx.map.line(raise.start())
        )));
    }
    if let Some((call, helper)) = skip_in_callees(ctx, f) {
        return Some(Helpers::HelperCallsSkip.because(format!(
            "the test calls `{helper}`, which calls `{}` on line {}: pytest then reports the whole test skipped or xfailed, so none of its asserts is a passing check",
            ctx.map.snippet(call),
            ctx.map.line(call.start())
        )));
    }
    let loads = resolve::loader_calls(ctx, f);
    let uses_module_level = uses_module_level_solution(ctx, test);
    if loads.len() + usize::from(uses_module_level) > 1 {
        let at = loads
            .get(usize::from(!uses_module_level)..)
            .and_then(|l| l.first())
            .copied()
            .unwrap_or(f.range);
        return Some(Statements::SolutionLoadedTwice.because(format!(
            "the test loads the solution more than once (again on line {}): each load is a separate module, which one namespace cannot stand for",
            ctx.map.line(at.start())
        )));
    }
    None
}

/// A `pytest.skip`/`xfail`/`importorskip` call in a function of the test file that the test
/// reaches by name (through helpers calling helpers): the call, and the helper the test names.
fn skip_in_callees(ctx: &Ctx, f: &ast::StmtFunctionDef) -> Option<(TextRange, String)> {
    let mut seen: HashSet<&str> = HashSet::default();
    let mut queue: Vec<(&ast::StmtFunctionDef, Option<String>)> = vec![(f, None)];
    while let Some((def, via)) = queue.pop() {
        if let Some(via) = &via {
            let found = find_call(def, |e| {
                ctx.scope
                    .pytest_path(e)
                    .is_some_and(|p| PYTEST_SKIPS.contains(&p.as_str()))
            });
            if let Some(call) = found {
                return Some((call, via.clone()));
            }
        }
        for name in called_names(def) {
            if seen.len() > 64 || !seen.insert(name) {
                continue;
            }
            if let Some(Global::Helper { def: Some(d), .. }) = ctx.scope.globals.get(name) {
                queue.push((d, Some(via.clone().unwrap_or_else(|| name.to_string()))));
            }
        }
    }
    None
}

/// A `raise` of unittest's `SkipTest` (or pytest's skip exception) anywhere in the test.
fn raises_skip(f: &ast::StmtFunctionDef) -> Option<TextRange> {
    let named = |e: &Expr| match e {
        Expr::Name(n) => n.id.as_str() == "SkipTest",
        Expr::Attribute(a) => {
            a.attr.as_str() == "SkipTest"
                || (a.attr.as_str() == "Exception"
                    && matches!(a.value.as_ref(), Expr::Attribute(s) if s.attr.as_str() == "skip"))
        }
        _ => false,
    };
    find_stmt(&f.body[..], Scope::All, |stmt| match stmt {
        Stmt::Raise(r) => {
            let exc = r.exc.as_deref().map(|e| match e {
                Expr::Call(c) => c.func.as_ref(),
                other => other,
            });
            exc.is_some_and(named).then_some(r.range)
        }
        _ => None,
    })
}

/// The names a function's body calls (`name(…)`).
fn called_names(f: &ast::StmtFunctionDef) -> Vec<&str> {
    let mut calls = Vec::new();
    for_each_expr(&f.body[..], Scope::All, |expr| {
        if let Expr::Call(call) = expr {
            if let Expr::Name(n) = call.func.as_ref() {
                calls.push(n.id.as_str());
            }
        }
    });
    calls
}

/// Whether the test reads a name that the file binds to the solution module (or a name of it) at
/// module level: the module pytest imported once for the whole file.
fn uses_module_level_solution(ctx: &Ctx, test: &Test) -> bool {
    any_expr(&test.case.func.body[..], Scope::All, |expr| match expr {
        Expr::Name(n) => {
            let name = n.id.as_str();
            !test.locals.contains(name)
                && matches!(
                    ctx.scope.globals.get(name),
                    Some(Global::SolutionModule | Global::SolutionName { .. })
                )
        }
        _ => false,
    })
}

/// The prefix of the temporaries a kept expression binds (`_bx_p0`, `_bx_raised`, `_bx_t`).
const RESERVED_PREFIX: &str = "_bx_";

/// A name the test's code uses that starts with [`RESERVED_PREFIX`].
fn reserved_name(f: &ast::StmtFunctionDef) -> Option<String> {
    // Its own visitor: it reads parameters' names too (and not their annotations).
    struct Find(Option<String>);
    impl<'e> Visitor<'e> for Find {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Name(n) = expr {
                if self.0.is_none() && n.id.starts_with(RESERVED_PREFIX) {
                    self.0 = Some(n.id.to_string());
                }
            }
            ruff_python_ast::visitor::walk_expr(self, expr);
        }
        fn visit_parameter(&mut self, p: &'e ast::Parameter) {
            if self.0.is_none() && p.name.starts_with(RESERVED_PREFIX) {
                self.0 = Some(p.name.to_string());
            }
        }
    }
    let mut find = Find(None);
    find.visit_parameters(&f.parameters);
    for stmt in &f.body {
        find.visit_stmt(stmt);
    }
    find.0
}

/// The first call anywhere in the function body for which `pred` holds of it or of its callee.
fn find_call(f: &ast::StmtFunctionDef, pred: impl Fn(&Expr) -> bool) -> Option<TextRange> {
    find_expr(&f.body[..], Scope::All, |expr| match expr {
        Expr::Call(call) if pred(&call.func) || pred(expr) => Some(call.range()),
        _ => None,
    })
}

/// A range extended to the end of its last line: an error the parser reports on the newline
/// after a statement (`assert f(1) ==`) belongs to that statement.
fn through_line_end(ctx: &Ctx, range: TextRange) -> TextRange {
    let rest = &ctx.map.source[range.end().to_usize()..];
    let len = rest.find(['\n', '\r']).map_or(rest.len(), |i| i + 1);
    TextRange::new(
        range.start(),
        range.end() + ruff_text_size::TextSize::new(len as u32),
    )
}
