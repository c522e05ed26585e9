//! pytest's names as the file spells them (`pytest_path` through the file's aliases of pytest), and
//! the pytest calls a module-level statement makes (a module skip).

use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::rules::ModuleCode;
use crate::source::SourceMap;

use super::walk::for_import_time_exprs;
use super::{kept, ModuleScope};

impl<'a> ModuleScope<'a> {
    /// The first module-level `pytest.skip(...)`, `pytest.importorskip(...)` or `pytest.xfail(...)`.
    pub(super) fn note_module_skip(&mut self, stmt: &Stmt, line: u32, map: &SourceMap) {
        if self.module_skip.is_some() {
            return;
        }
        if let Some(call) = self.module_level_call(stmt, |p| {
            matches!(p, "pytest.skip" | "pytest.importorskip" | "pytest.xfail")
        }) {
            self.module_skip = Some((
                line,
                kept(
                    ModuleCode::ModuleLevelSkip
                        .because(format!("`{}` runs at module level", map.snippet(call))),
                ),
            ));
        }
    }

    /// The first call in a module-level statement (outside function bodies) whose pytest path
    /// satisfies `pred`.
    fn module_level_call(&self, stmt: &Stmt, pred: impl Fn(&str) -> bool) -> Option<TextRange> {
        let mut found = None;
        for_import_time_exprs(stmt, &mut |e| {
            if found.is_none() {
                if let Expr::Call(c) = e {
                    if self.pytest_path(e).is_some_and(|p| pred(&p)) {
                        found = Some(c.range());
                    }
                }
            }
        });
        found
    }

    /// The canonical dotted name of a decorator or mark expression, `pytest.mark.skip` for
    /// `@mark.skip` when `mark` came from pytest. Calls are looked through.
    pub fn pytest_path(&self, expr: &Expr) -> Option<String> {
        let expr = match expr {
            Expr::Call(call) => call.func.as_ref(),
            other => other,
        };
        // Cheap rejection before building any string: the chain must start at a pytest alias.
        let mut root = expr;
        while let Expr::Attribute(a) = root {
            root = &a.value;
        }
        let Expr::Name(first) = root else { return None };
        let canonical = self.pytest_aliases.get(first.id.as_str())?;
        // The canonical name, then the attributes after the first name (a name has no dot).
        let mut path = String::with_capacity(canonical.len() + 24);
        path.push_str(canonical);
        fn attrs(expr: &Expr, out: &mut String) {
            if let Expr::Attribute(a) = expr {
                attrs(&a.value, out);
                out.push('.');
                out.push_str(a.attr.as_str());
            }
        }
        attrs(expr, &mut path);
        Some(path)
    }
}
