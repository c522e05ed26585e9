//! Bare reads of the solution module's attributes that pytest makes while it imports the test
//! file (`solution.fact_rec` in a parametrize list or a `pytest.param`, a default value, a test's
//! annotation, a module-level lambda's default): a candidate without the attribute makes pytest
//! fail the collection of the whole file, so no test runs. Each such read becomes an `eval`
//! binding of the contract (`sol.fact_rec`, read once where pytest read it), which fails every
//! check of the file when it raises; a read after module-level code that may change the solution
//! cannot be made before that code is replayed: it joins the replay at its place instead
//! (`PreludeStmt::Read`).

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::rules::ModuleCode;
use crate::source::SourceMap;

use super::{kept, ModuleScope, PreludeStmt};

/// One bare read of a solution attribute at import: where it is, and the attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportRead {
    pub range: TextRange,
    pub attr: String,
    pub line: u32,
}

/// What the reads of one file depend on besides the statement: whether annotations are evaluated
/// at all (`from __future__ import annotations`), and the names the file imports as submodules of
/// a module (`import pkg.sub` makes `pkg.sub` an attribute the evaluator's fresh module may lack).
pub(super) struct ReadFacts {
    pub(super) future_annotations: bool,
    pub(super) submodules: HashSet<String>,
}

impl ReadFacts {
    pub(super) fn of(body: &[Stmt]) -> Self {
        let mut future_annotations = false;
        let mut submodules = HashSet::default();
        fn add(submodules: &mut HashSet<String>, dotted: &str) {
            for part in dotted.split('.').skip(1) {
                submodules.insert(part.to_string());
            }
        }
        let mut visit = |stmt: &Stmt| match stmt {
            Stmt::ImportFrom(i) => {
                let module = i.module.as_ref().map(|m| m.as_str()).unwrap_or_default();
                if i.level == 0 && module == "__future__" {
                    future_annotations |= i.names.iter().any(|a| a.name.as_str() == "annotations");
                }
                add(&mut submodules, module);
                // `from pkg import sub` may import the submodule `pkg.sub` too.
                if i.level == 0 {
                    for a in &i.names {
                        submodules.insert(a.name.to_string());
                    }
                }
            }
            Stmt::Import(i) => i
                .names
                .iter()
                .for_each(|a| add(&mut submodules, a.name.as_str())),
            _ => {}
        };
        struct All<'f>(&'f mut dyn FnMut(&Stmt));
        impl<'a> Visitor<'a> for All<'_> {
            fn visit_stmt(&mut self, stmt: &'a Stmt) {
                (self.0)(stmt);
                visitor::walk_stmt(self, stmt);
            }
        }
        let mut all = All(&mut visit);
        for stmt in body {
            all.visit_stmt(stmt);
        }
        ReadFacts {
            future_annotations,
            submodules,
        }
    }
}

impl<'a> ModuleScope<'a> {
    /// The bare solution reads a module-level statement makes at import, when it runs nothing
    /// else (a statement that does is replayed before every test or drops the file already).
    pub(super) fn note_import_reads(&mut self, stmt: &'a Stmt, map: &SourceMap, facts: &ReadFacts) {
        if self.import_effect(stmt).is_some() {
            return;
        }
        let mut found = Found::default();
        self.stmt_reads(stmt, None, facts, &mut found);
        for (expr, attr) in found.reads {
            let range = expr.range();
            self.import_reads.push(ImportRead {
                range,
                attr,
                line: map.line(range.start()),
            });
            self.import_read_exprs.push(expr);
        }
        if let Some(range) = found.deferred {
            let line = map.line(range.start());
            self.global_barriers.push((
                line,
                kept(ModuleCode::AnnotationReadsSolution.because(format!(
                    "the annotation `{}` on line {line} reads the solution only under Python before 3.14 (3.14 does not evaluate it), when pytest imports the file, where a candidate without it fails the collection of every test",
                    map.snippet(range)
                ))),
            ));
        }
    }

    /// A read after module-level code the fold replays, which may change the solution: pytest
    /// read the attribute after that code ran, where the evaluator's binding would read it before.
    /// Such a read leaves the bindings and joins the replay at its place (`PreludeStmt::Read`), so
    /// that each check reads it after the same code, as pytest's import did.
    pub(super) fn settle_import_reads(&mut self) {
        let exprs = std::mem::take(&mut self.import_read_exprs);
        let Some(first) = self
            .prelude
            .iter()
            .filter(|p| !matches!(p, PreludeStmt::Stmt { inert: true, .. }))
            .map(|p| p.range())
            .min_by_key(|r| r.start())
        else {
            return;
        };
        let reads = std::mem::take(&mut self.import_reads);
        for (read, expr) in reads.into_iter().zip(exprs) {
            if read.range.start() < first.start() {
                self.import_reads.push(read);
                continue;
            }
            let at = self
                .prelude
                .partition_point(|p| p.range().start() < read.range.start());
            self.prelude.insert(at, PreludeStmt::Read { expr });
        }
    }

    /// `class_test`: the statement is in a class body, of a class pytest collects (`Test…`).
    fn stmt_reads(
        &self,
        stmt: &'a Stmt,
        class_test: Option<bool>,
        facts: &ReadFacts,
        found: &mut Found<'a>,
    ) {
        match stmt {
            Stmt::FunctionDef(f) => {
                for d in &f.decorator_list {
                    self.expr_reads(&d.expression, facts, found);
                }
                for p in f.parameters.iter() {
                    if let Some(default) = p.default() {
                        self.expr_reads(default, facts, found);
                    }
                }
                if facts.future_annotations {
                    return;
                }
                let annotations: Vec<&Expr> = f
                    .parameters
                    .iter()
                    .filter_map(|p| p.annotation())
                    .chain(f.returns.as_deref())
                    .collect();
                // pytest evaluates a test's and a fixture's annotations on every version (its
                // signature of the function); a helper's only Python before 3.14 does.
                let collected = (f.name.starts_with("test") && class_test != Some(false))
                    || f.decorator_list.iter().any(|d| {
                        self.pytest_path(&d.expression)
                            .is_some_and(|p| p.starts_with("pytest.fixture"))
                    });
                for a in annotations {
                    if collected {
                        self.expr_reads(a, facts, found);
                    } else {
                        self.defer(a, facts, found);
                    }
                }
            }
            Stmt::ClassDef(c) => {
                for d in &c.decorator_list {
                    self.expr_reads(&d.expression, facts, found);
                }
                if let Some(args) = c.arguments.as_deref() {
                    for a in args.args.iter() {
                        self.expr_reads(a, facts, found);
                    }
                    for k in args.keywords.iter() {
                        self.expr_reads(&k.value, facts, found);
                    }
                }
                let test = c.name.starts_with("Test");
                for s in &c.body {
                    self.stmt_reads(s, Some(test), facts, found);
                }
            }
            Stmt::Assign(a) => {
                // `Y = sol.X` at module level is an `attr` binding already.
                if class_test.is_none()
                    && matches!(a.targets.as_slice(), [Expr::Name(_)])
                    && self.solution_attr(&a.value).is_some()
                {
                    return;
                }
                self.expr_reads(&a.value, facts, found);
            }
            Stmt::AnnAssign(a) => {
                if let Some(value) = a.value.as_deref() {
                    let alias = class_test.is_none()
                        && matches!(a.target.as_ref(), Expr::Name(_))
                        && self.solution_attr(value).is_some();
                    if !alias {
                        self.expr_reads(value, facts, found);
                    }
                }
                if !facts.future_annotations {
                    self.defer(&a.annotation, facts, found);
                }
            }
            Stmt::Expr(e) => self.expr_reads(&e.value, facts, found),
            _ => {}
        }
    }

    /// An annotation evaluated at import only before Python 3.14.
    fn defer(&self, annotation: &'a Expr, facts: &ReadFacts, found: &mut Found<'a>) {
        let mut reads = Found::default();
        self.expr_reads(annotation, facts, &mut reads);
        if !reads.reads.is_empty() && found.deferred.is_none() {
            found.deferred = Some(annotation.range());
        }
    }

    /// The bare reads of the solution module's attributes an expression makes when it is
    /// evaluated: not inside a lambda's body, nor a generator's later clauses (run only when it is
    /// consumed).
    fn expr_reads(&self, expr: &'a Expr, facts: &ReadFacts, found: &mut Found<'a>) {
        struct Reads<'s, 'a, 'f, 'x> {
            scope: &'s ModuleScope<'a>,
            facts: &'f ReadFacts,
            out: Vec<(&'x Expr, String)>,
        }
        impl<'x> Visitor<'x> for Reads<'_, '_, '_, 'x> {
            fn visit_expr(&mut self, expr: &'x Expr) {
                if let Some(attr) = self.scope.solution_attr(expr) {
                    if let Expr::Attribute(a) = expr {
                        if matches!(a.value.as_ref(), Expr::Name(_))
                            && !self.facts.submodules.contains(&attr)
                        {
                            self.out.push((expr, attr));
                        }
                    }
                    return;
                }
                match expr {
                    Expr::Lambda(l) => {
                        if let Some(p) = l.parameters.as_deref() {
                            for p in p.iter() {
                                if let Some(d) = p.default() {
                                    self.visit_expr(d);
                                }
                            }
                        }
                    }
                    Expr::Generator(g) => {
                        if let Some(first) = g.generators.first() {
                            self.visit_expr(&first.iter);
                        }
                    }
                    other => visitor::walk_expr(self, other),
                }
            }
        }
        let mut reads = Reads {
            scope: self,
            facts,
            out: Vec::new(),
        };
        reads.visit_expr(expr);
        found.reads.extend(reads.out);
    }
}

/// The reads one statement makes, and the first annotation only some Python versions evaluate.
#[derive(Default)]
struct Found<'a> {
    reads: Vec<(&'a Expr, String)>,
    deferred: Option<TextRange>,
}
