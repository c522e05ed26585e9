//! One module-level statement bound: what each name it binds means (an assignment, a literal
//! constant, a computed value, a statement with a syntax error), with the facts about the whole
//! file that binding needs.

use rustc_hash::FxHashMap as HashMap;
use std::rc::Rc;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::names::{self, Replacement};
use crate::rules::{ModuleCode, Reason};
use crate::source::SourceMap;

use super::changes::{changed_names, changed_other_than_by_methods};
use super::walk::BoundNames;
use super::{kept, Fixture, Global, ModuleScope};

/// A literal constant longer than this (after substituting other constants) is not inlined: chains
/// of constants would grow without bound.
const MAX_CONSTANT_TEXT: usize = 16 * 1024;
/// Nor one nesting deeper than this: inlined into an assert it must stay within CPython's limit.
const MAX_CONSTANT_NESTING: usize = 50;

/// What binding one statement needs to know about the whole file.
pub(super) struct FileFacts<'m, 's> {
    map: &'m SourceMap<'s>,
    /// Module-level names the file changes after binding them: name → the first such statement.
    changed: HashMap<String, String>,
    /// Of those, the ones changed other than by calling their methods.
    changed_otherwise: rustc_hash::FxHashSet<String>,
    /// How many module-level assignments bind each name.
    assigned: HashMap<String, usize>,
    /// What the file's bare reads of the solution at import depend on.
    reads: super::import_reads::ReadFacts,
}

impl<'m, 's> FileFacts<'m, 's> {
    pub(super) fn of(body: &[Stmt], map: &'m SourceMap<'s>) -> Self {
        let changed = changed_names(body)
            .into_iter()
            .map(|(name, range)| {
                let what = format!(
                    "`{}` on line {}",
                    map.snippet(range),
                    map.line(range.start())
                );
                (name, what)
            })
            .collect();
        let mut assigned: HashMap<String, usize> = HashMap::default();
        for stmt in body {
            if let Stmt::Assign(a) = stmt {
                for t in &a.targets {
                    let mut names = Vec::new();
                    names::collect_targets_vec(t, &mut names);
                    for n in names {
                        *assigned.entry(n).or_default() += 1;
                    }
                }
            }
        }
        FileFacts {
            map,
            changed,
            changed_otherwise: changed_other_than_by_methods(body),
            assigned,
            reads: super::import_reads::ReadFacts::of(body),
        }
    }
}

impl<'a> ModuleScope<'a> {
    /// Bind a module-level name; a constant also joins the replacements later constants see.
    fn insert_global(&mut self, name: String, global: Global<'a>) {
        if let Global::SolutionName { name: attr } = &global {
            let binding = crate::model::Binding::Attr {
                name: name.clone(),
                module: self.solution_module_path().to_string(),
                attr: attr.clone(),
            };
            self.solution_bindings.push((self.current, binding));
        }
        match &global {
            Global::Constant { value, .. } => {
                self.constants
                    .insert(name.clone(), Replacement::Value(Rc::clone(value)));
            }
            _ => {
                self.constants.remove(&name);
            }
        }
        self.globals.insert(name, global);
    }

    /// A statement with a syntax error: every name it binds is untrusted.
    pub(super) fn bind_broken(&mut self, stmt: &'a Stmt, map: &SourceMap, error_line: u32) {
        let line = map.line(stmt.range().start());
        let mut bound = BoundNames::default();
        bound.visit_stmt(stmt);
        for name in bound.names {
            if let Stmt::FunctionDef(_) = stmt {
                self.fixtures.insert(
                    name.clone(),
                    Fixture::Unsupported {
                        why: kept(ModuleCode::SyntaxErrorInStatement.because(format!(
                            "`{name}` (line {line}) has a syntax error on line {error_line}"
                        ))),
                    },
                );
            }
            self.globals.insert(
                name,
                Global::Computed {
                    line,
                    why: kept(
                        ModuleCode::SyntaxErrorInStatement
                            .because(format!("has a syntax error on line {error_line}")),
                    ),
                },
            );
        }
    }

    /// One module-level statement: what it runs at import, then what each name it binds means.
    pub(super) fn bind(&mut self, stmt: &'a Stmt, file: &FileFacts) {
        self.current = stmt.range();
        let line = file.map.line(stmt.range().start());
        self.unregister_rebound_fixtures(stmt, line);
        self.note_module_skip(stmt, line, file.map);
        self.note_import_effect(stmt, line, file.map);
        self.note_import_reads(stmt, file.map, &file.reads);
        match stmt {
            Stmt::Import(import) => {
                for alias in &import.names {
                    self.bind_import(alias, line);
                }
            }
            Stmt::ImportFrom(import) => self.bind_import_from(import, line),
            Stmt::FunctionDef(f) => self.bind_function(f, line, file.map),
            Stmt::ClassDef(c) => {
                self.globals.insert(
                    c.name.to_string(),
                    Global::Helper {
                        kind: "class",
                        line,
                        def: None,
                    },
                );
            }
            Stmt::Assign(a) => match a.targets.as_slice() {
                [Expr::Name(target)] => self.bind_assign(stmt, target, &a.value, line, file),
                targets => {
                    let why = ModuleCode::BoundByUnpacking
                        .because("is bound by unpacking at module level");
                    self.bind_computed(targets, line, why)
                }
            },
            Stmt::AnnAssign(a) => {
                if let (Expr::Name(target), Some(value)) = (a.target.as_ref(), &a.value) {
                    let name = target.id.to_string();
                    let global = self.classify_value(file, &name, value, stmt.range(), line);
                    self.insert_global(name, global);
                }
            }
            Stmt::Expr(e) if matches!(e.value.as_ref(), Expr::StringLiteral(_)) => {}
            Stmt::If(_) | Stmt::Try(_) | Stmt::For(_) | Stmt::While(_) | Stmt::With(_) => {
                let mut bound = BoundNames::default();
                bound.visit_stmt(stmt);
                for n in bound.names {
                    self.globals.insert(
                        n,
                        Global::Computed {
                            line,
                            why: kept(
                                ModuleCode::BoundInBlock
                                    .because("is bound inside a block at module level"),
                            ),
                        },
                    );
                }
            }
            _ => {}
        }
    }

    /// `name = value`.
    fn bind_assign(
        &mut self,
        stmt: &Stmt,
        target: &ast::ExprName,
        value: &'a Expr,
        line: u32,
        file: &FileFacts,
    ) {
        let name = target.id.to_string();
        if name == "pytestmark" {
            return;
        }
        // `skip_me = pytest.mark.skip(...)` makes `@skip_me` that mark.
        if let Some(path) = self
            .pytest_path(value)
            .filter(|p| p.starts_with("pytest.mark."))
        {
            self.pytest_aliases.insert(name.clone(), path);
        }
        let global = self.classify_value(file, &name, value, stmt.range(), line);
        self.insert_global(name, global);
    }

    /// Every name the targets bind is computed, for the reason `why`.
    fn bind_computed(&mut self, targets: &[Expr], line: u32, why: Reason) {
        for t in targets {
            let mut names = Vec::new();
            names::collect_targets_vec(t, &mut names);
            for n in names {
                self.globals.insert(
                    n,
                    Global::Computed {
                        line,
                        why: kept(why.clone()),
                    },
                );
            }
        }
    }

    /// Whether `value` makes an object no method call changes: a literal string, bytes, number,
    /// `True`/`False`/`None`, a tuple of such, or `re.compile` of such (a compiled pattern).
    pub(super) fn immutable(&self, value: &Expr) -> bool {
        match value {
            Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::NumberLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_) => true,
            Expr::Tuple(t) => t.elts.iter().all(|e| self.immutable(e)),
            Expr::Call(c) => {
                let compile = match c.func.as_ref() {
                    Expr::Attribute(a) => {
                        a.attr.as_str() == "compile"
                            && matches!(a.value.as_ref(), Expr::Name(n)
                                if matches!(self.globals.get(n.id.as_str()),
                                    Some(Global::Import { module, stdlib: Some(_), .. }) if module == "re"))
                    }
                    _ => false,
                };
                compile
                    && c.arguments
                        .keywords
                        .iter()
                        .all(|k| self.immutable(&k.value))
                    && c.arguments
                        .args
                        .iter()
                        .all(|a| self.immutable(a) || self.re_flag(a))
            }
            _ => false,
        }
    }

    /// `re.I`, `re.IGNORECASE | re.MULTILINE`: flags of the standard `re` module.
    fn re_flag(&self, value: &Expr) -> bool {
        match value {
            Expr::BinOp(b) => self.re_flag(&b.left) && self.re_flag(&b.right),
            Expr::Attribute(a) => matches!(a.value.as_ref(), Expr::Name(n)
                if matches!(self.globals.get(n.id.as_str()),
                    Some(Global::Import { module, stdlib: Some(_), .. }) if module == "re")),
            _ => false,
        }
    }

    /// What `name = value` makes `name` mean.
    fn classify_value(
        &self,
        file: &FileFacts,
        name: &str,
        value: &'a Expr,
        range: TextRange,
        line: u32,
    ) -> Global<'a> {
        if self.is_solution_module_expr(value) {
            return Global::SolutionModule;
        }
        if let Some(attr) = self.solution_attr(value) {
            return Global::SolutionName { name: attr };
        }
        let immutable = !file.changed_otherwise.contains(name) && self.immutable(value);
        if let Some(change) = file.changed.get(name).filter(|_| !immutable) {
            return Global::Computed {
                line,
                why: kept(ModuleCode::ConstantChangedLater.because(format!(
                    "is changed by {change}, so its literal value is not what a test sees"
                ))),
            };
        }
        if file.assigned.get(name).copied().unwrap_or(0) > 1 {
            return Global::Computed {
                line,
                why: kept(ModuleCode::AssignedMoreThanOnce.because("is assigned more than once")),
            };
        }
        match self.constant(value, file.map) {
            Some(value_text) => Global::Constant {
                value: Rc::new(value_text),
                source: value,
                range,
            },
            None => Global::Computed {
                line,
                why: kept(ModuleCode::ComputedByTestFile.because("is computed by the test file")),
            },
        }
    }

    /// A literal value (reading only earlier constants) written out with those constants
    /// substituted, unless it grows too long or too deep to inline.
    fn constant(&self, value: &Expr, src: &SourceMap) -> Option<names::Rendered> {
        let is_const = |n: &str| matches!(self.globals.get(n), Some(Global::Constant { .. }));
        if !names::is_literal_value(value, &is_const) {
            return None;
        }
        names::render(value, &self.constants, src).ok().filter(|r| {
            r.text.len() <= MAX_CONSTANT_TEXT
                && names::bracket_depth(&r.text) <= MAX_CONSTANT_NESTING
        })
    }
}
