//! `import` and `from … import` at module level (a star import from the solution included), and
//! the evaluator's bindings of the modules the file imports.

use crate::sort::SharedSort as _;
use ruff_python_ast as ast;

use crate::names;
use crate::rules::ModuleCode;

use super::{kept, Fixture, Global, ModuleScope};

impl<'a> ModuleScope<'a> {
    /// Whether the evaluator binds `name` to a module the file imports (`Binding::Import`), with
    /// nothing bound under that name after it.
    pub fn imports_bound(&self, name: &str) -> bool {
        let last = self.solution_bindings.iter().rev().find(|(_, b)| match b {
            crate::model::Binding::Import { name: n, .. }
            | crate::model::Binding::Attr { name: n, .. } => n == name,
            // A star import leaves the modules it keeps as they were (the evaluator checks).
            crate::model::Binding::Star { keep, .. } => !keep.iter().any(|k| k.name == name),
            _ => false,
        });
        matches!(last, Some((_, crate::model::Binding::Import { .. })))
    }

    /// `import M` or `import M as N`.
    pub(super) fn bind_import(&mut self, alias: &ast::Alias, line: u32) {
        let module = alias.name.to_string();
        if module == "pytest" {
            let bound = alias.asname.as_ref().unwrap_or(&alias.name).to_string();
            self.pytest_aliases.insert(bound, "pytest".into());
        }
        let (bound, full) = match &alias.asname {
            Some(asname) => (asname.to_string(), module.clone()),
            None => {
                let first = module.split('.').next().unwrap_or("").to_string();
                (first.clone(), first)
            }
        };
        let global = if self.is_solution_module_name(&full)
            && (alias.asname.is_none() || self.solution_modules.contains(&module))
        {
            Global::SolutionModule
        } else {
            let mut stdlib = names::stdlib_import(&module, alias.asname.is_some()).or_else(|| {
                self.pickle_on_literals
                    .then(|| names::pickle_on_literals(&module, None))
                    .flatten()
            });
            if alias.asname.is_none() {
                // `import os` and `import os.path` bind the same `os`; both ran.
                if let Some(Global::Import {
                    stdlib: earlier, ..
                }) = self.globals.get(&bound)
                {
                    stdlib = names::merge_plain_imports(earlier.as_deref(), stdlib);
                }
            }
            // Not a part of the solution: what the evaluator loads fresh is the solution itself.
            if stdlib.is_none() && is_third_party(&module) && !self.is_solution_module_name(&module)
            {
                let binding = crate::model::Binding::Import {
                    name: bound.clone(),
                    module: module.clone(),
                    attr: None,
                };
                self.solution_bindings.push((self.current, binding));
            }
            Global::Import {
                module: full,
                line,
                stdlib,
            }
        };
        self.globals.insert(bound, global);
    }

    /// `from M import X as Y, ...` (and `from solution import *`).
    pub(super) fn bind_import_from(&mut self, import: &ast::StmtImportFrom, line: u32) {
        let module = import
            .module
            .as_ref()
            .map(|m| m.to_string())
            .unwrap_or_default();
        let from_solution = import.level == 0 && self.is_solution_module_name(&module);
        for alias in &import.names {
            let name = alias.name.to_string();
            if name == "*" {
                self.star_import |= from_solution;
                self.other_star_import |= !from_solution;
                if from_solution {
                    let keep = self.untrust_before_star(line);
                    let binding = crate::model::Binding::Star {
                        module: module.clone(),
                        keep,
                    };
                    self.solution_bindings.push((self.current, binding));
                }
                continue;
            }
            let bound = alias.asname.as_ref().unwrap_or(&alias.name).to_string();
            if module == "pytest" {
                self.pytest_aliases
                    .insert(bound.clone(), format!("pytest.{name}"));
            }
            let global = if from_solution {
                self.imported_from_solution
                    .push((bound.clone(), name.clone()));
                let binding = crate::model::Binding::Attr {
                    name: bound.clone(),
                    module: module.clone(),
                    attr: name.clone(),
                };
                self.solution_bindings.push((self.current, binding));
                Global::SolutionName { name }
            } else {
                let stdlib = (import.level == 0)
                    .then(|| {
                        names::stdlib_from_import(&module, &name).or_else(|| {
                            self.pickle_on_literals
                                .then(|| names::pickle_on_literals(&module, Some(&name)))
                                .flatten()
                        })
                    })
                    .flatten();
                if import.level == 0 && is_third_party(&module) {
                    let binding = crate::model::Binding::Import {
                        name: bound.clone(),
                        module: module.clone(),
                        attr: Some(name.clone()),
                    };
                    self.solution_bindings.push((self.current, binding));
                }
                let dotted = if module.is_empty() {
                    name
                } else {
                    format!("{module}.{name}")
                };
                Global::Import {
                    module: dotted,
                    line,
                    stdlib,
                }
            };
            self.globals.insert(bound, global);
        }
    }

    /// `from solution import *` may rebind any name the file bound before it, with whatever the
    /// candidate exports (`math`, `pytest`, a helper): none of them is known after it.
    /// Modules the file imported (the standard library's, pytest) stay what they were: the star
    /// binding lists them, and the evaluator fails every check where the candidate's export replaces
    /// one with another object. The names it returns.
    fn untrust_before_star(&mut self, line: u32) -> Vec<crate::model::Kept> {
        let why = kept(ModuleCode::BoundBeforeStarImport.because(format!("is bound before `from solution import *` on line {line}, which may replace it with whatever the candidate exports")));
        let mut keep = Vec::new();
        let mut names: Vec<String> = self.globals.keys().cloned().collect();
        names.sort_shared();
        for name in names {
            if let Some(kept) = self.kept_module(&name) {
                keep.push(kept);
                continue;
            }
            self.globals.insert(
                name,
                Global::Computed {
                    line,
                    why: why.clone(),
                },
            );
        }
        self.constants.clear();
        let pytest_kept = |alias: &str| keep.iter().any(|k: &crate::model::Kept| k.name == alias);
        if self.pytest_aliases.keys().any(|a| !pytest_kept(a)) {
            self.pytest_before_star.get_or_insert(line);
        }
        for fixture in self.fixtures.values_mut() {
            *fixture = Fixture::Unsupported { why: why.clone() };
        }
        keep
    }

    /// A module-level name bound to a module by `import m [as n]` (the standard library's, or
    /// pytest), as the star binding's `keep` lists it.
    fn kept_module(&self, name: &str) -> Option<crate::model::Kept> {
        let Some(Global::Import { module, stdlib, .. }) = self.globals.get(name) else {
            return None;
        };
        let plain = |text: &str| {
            text.strip_prefix("__import__(\"")
                .and_then(|r| r.strip_suffix("\")"))
                .filter(|m| !m.contains('"'))
                .map(str::to_string)
        };
        // `__import__("m", fromlist=("x",)).x`: `from m import x`.
        let from = |text: &str| {
            let rest = text.strip_prefix("__import__(\"")?;
            let (m, rest) = rest.split_once("\", fromlist=(\"")?;
            let (x, tail) = rest.split_once("\",)).")?;
            (tail == x && !m.contains('"') && !x.contains('"'))
                .then(|| (m.to_string(), x.to_string()))
        };
        match stdlib {
            Some(text) => match (plain(text), from(text)) {
                (Some(m), _) => Some(crate::model::Kept {
                    name: name.to_string(),
                    module: m,
                    attr: None,
                }),
                (None, Some((m, x))) => Some(crate::model::Kept {
                    name: name.to_string(),
                    module: m,
                    attr: Some(x),
                }),
                _ => None,
            },
            None if module == "pytest" => Some(crate::model::Kept {
                name: name.to_string(),
                module: "pytest".into(),
                attr: None,
            }),
            None => None,
        }
    }
}

/// A module whose import the evaluator makes as the test file did (`Binding::Import`): pytest
/// itself (`pytest.approx`), importable wherever pytest runs. Any other module may be the test's
/// neighbour, which pytest finds through its rootdir on `sys.path` and an evaluator need not (the
/// file's reads of it stay dropped).
fn is_third_party(module: &str) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    top == "pytest"
}
