//! Resolving a name the assertion reads that is not a local of the test: the solution's, a constant
//! or helper of the test file, a standard-library import, or why the namespace cannot have it.

use std::rc::Rc;

use ruff_python_ast::StmtFunctionDef;

use super::super::Ctx;
use super::aliases::Aliases;
use super::{module_attr, module_replacement, shadows_import, Resolution};
use crate::model::{Origin, OriginRole};
use crate::module::Global;
use crate::names::{self, Replacement};
use crate::rules::{Helpers, Statements};

/// Resolve a name the assertion reads that is not a local of the test. `called`: every read of it
/// the assertion and its replay make is a call's callee (`name(...)`).
pub fn resolve_global(
    ctx: &Ctx,
    name: &str,
    attr: Option<&str>,
    called: bool,
    map: &mut Aliases,
    origins: &mut Vec<Origin>,
    solution_names: &mut Vec<String>,
) -> Resolution {
    let mut lookup = Lookup {
        ctx,
        origins,
        solution_names,
        helpers: Vec::new(),
    };
    lookup.global(name, attr, called, map)
}

/// Resolving globals: what it finds besides their spellings (where constants and helpers come
/// from, the solution's names read), and the helpers being written out, outermost first.
pub(super) struct Lookup<'l, 'c, 's, 'a> {
    pub(super) ctx: &'c Ctx<'s, 'a>,
    pub(super) origins: &'l mut Vec<Origin>,
    pub(super) solution_names: &'l mut Vec<String>,
    pub(super) helpers: Vec<String>,
}

impl Lookup<'_, '_, '_, '_> {
    /// What the global `name` (read as `name.attr` if `attr`) stands for; its spelling goes into
    /// `map`.
    pub(super) fn global(
        &mut self,
        name: &str,
        attr: Option<&str>,
        called: bool,
        map: &mut Aliases,
    ) -> Resolution {
        let ctx = self.ctx;
        match ctx.scope.globals.get(name) {
            Some(Global::SolutionModule) => match attr {
                Some(attr) => module_attr(ctx, name, attr, map, self.solution_names),
                None => {
                    map.insert(name.to_string(), module_replacement(ctx));
                    Resolution::Ok
                }
            },
            // The test file's own name for what it took from the solution: the evaluator binds it
            // the same way (`Binding::Attr`).
            Some(Global::SolutionName { name: real }) => {
                self.solution_names.push(real.clone());
                map.insert(
                    name.to_string(),
                    Replacement::Value(Rc::new(names::Rendered::name(name))),
                );
                Resolution::Ok
            }
            Some(Global::Constant { value, range, .. }) => {
                self.origins.push(Origin {
                    role: OriginRole::Constant,
                    span: ctx.map.span(*range),
                });
                map.insert(name.to_string(), Replacement::Value(Rc::clone(value)));
                Resolution::Ok
            }
            // A standard-library import is spelled out: `__import__` gives the same module object in
            // the solution's namespace, and importing the standard library runs no user code (the
            // test file's import already ran it in pytest's process).
            Some(Global::Import {
                stdlib: Some(text), ..
            }) if !shadows_import(ctx) => {
                map.insert(
                    name.to_string(),
                    Replacement::Value(Rc::new(names::import_value(text))),
                );
                Resolution::Stdlib
            }
            // A module the evaluator imports as the file did (`Binding::Import`): the test's own
            // name for it.
            Some(Global::Import { stdlib: None, .. }) if ctx.scope.imports_bound(name) => {
                map.insert(
                    name.to_string(),
                    Replacement::Value(Rc::new(names::Rendered::name(name))),
                );
                Resolution::Ok
            }
            Some(Global::Import { module, line, .. }) => imported_elsewhere(name, module, *line),
            Some(Global::Helper {
                def: Some(def),
                line,
                ..
            }) if called && !ctx.scope.loaders.contains(name) => {
                self.helper_call(name, def, *line, map)
            }
            Some(Global::Helper { kind, line, .. }) => {
                if ctx.scope.loaders.contains(name) {
                    if let Some(attr) = attr {
                        return module_attr(ctx, name, attr, map, self.solution_names);
                    }
                    if called {
                        map.insert(name.to_string(), module_replacement(ctx));
                        return Resolution::Ok;
                    }
                    Resolution::Unresolved(
                        Helpers::LoaderUsedOtherwise.because(format!(
                            "`{name}` loads the solution; only `{name}()` can be rewritten"
                        )),
                        false,
                    )
                } else {
                    helper_not_called(ctx, name, kind, *line)
                }
            }
            Some(Global::Computed { line, why }) => Resolution::Unresolved(
                why.clone().map(|w| format!("`{name}` (line {line}) {w}")),
                false,
            ),
            None => self.undefined(name),
        }
    }

    /// A helper of the test file the assertion only calls: written out as a lambda, if it can be.
    fn helper_call(
        &mut self,
        name: &str,
        def: &StmtFunctionDef,
        line: u32,
        map: &mut Aliases,
    ) -> Resolution {
        // A body a lambda cannot hold is made from its own source instead.
        let made = self.helper_lambda(name, def).or_else(|why| {
            let retry = why.rule == Helpers::HelperBodyNotExpression.into()
                || why.rule == Helpers::HelperYields.into()
                || why.rule == Helpers::HelperReadsFrame.into();
            if retry {
                // Its own reason, the last way tried.
                self.compiled_helper(name, def)
            } else {
                Err(why)
            }
        });
        match made {
            Ok(lambda) => {
                self.origins.push(Origin {
                    role: OriginRole::Inlined,
                    span: self.ctx.map.span(def.range),
                });
                map.insert(name.to_string(), Replacement::Value(Rc::new(lambda)));
                Resolution::Ok
            }
            Err(why) => Resolution::Unresolved(
                why.map(|why| {
                    format!("`{name}` is a function the test file defines (line {line}), and {why}")
                }),
                false,
            ),
        }
    }

    /// A name the test file does not bind: a builtin, or (after `from solution import *`) the
    /// solution's.
    fn undefined(&mut self, name: &str) -> Resolution {
        // The evaluator binds the test module's `__name__` (`Binding::Value`).
        if name == "__name__" {
            Resolution::Ok
        } else if is_module_dunder(name) {
            Resolution::Unresolved(Statements::TestModuleDunder.because(format!("`{name}` is the test module's own, which the evaluator's namespace does not have (there it would be the `builtins` module's)")), false)
        } else if ruff_python_stdlib::builtins::is_python_builtin(name, 14, false) {
            Resolution::Ok
        } else if let (true, Some(line)) =
            (self.ctx.scope.star_import, self.ctx.scope.star_after_code)
        {
            Resolution::Unresolved(Statements::StarImportAfterCode.because(format!("`{name}` may come from `from solution import *`, which runs after module-level code on line {line} that may change the solution, and the evaluator binds names before anything is replayed")), false)
        } else if self.ctx.scope.star_import {
            self.solution_names.push(name.to_string());
            Resolution::Ok
        } else {
            Resolution::Unresolved(
                Statements::UndefinedName
                    .because(format!("`{name}` is not defined in the test file")),
                false,
            )
        }
    }
}

/// A special name every module has (`__name__`, `__doc__`, `__file__`, …), as opposed to a builtin
/// whose name is written the same way (`__import__`, `__build_class__`, `__debug__`).
fn is_module_dunder(name: &str) -> bool {
    name.starts_with("__")
        && name.ends_with("__")
        && !matches!(name, "__import__" | "__build_class__" | "__debug__")
}

/// A module the test file imports that is not the standard library's (or `__import__` may be the
/// solution's): the evaluation namespace does not have it.
fn imported_elsewhere(name: &str, module: &str, line: u32) -> Resolution {
    Resolution::Unresolved(
        Statements::TestFileImport.because(if module == name {
            format!("`{name}` is a module the test file imports (line {line}); the evaluation namespace has only the builtins and what the test file takes from the solution and pytest, not it")
        } else {
            format!("`{name}` comes from `{module}`, imported by the test file (line {line}); the evaluation namespace has only the builtins and what the test file takes from the solution and pytest, not it")
        }),
        true,
    )
}

/// A function or class of the test file used other than by a call that can be written out.
fn helper_not_called(ctx: &Ctx, name: &str, kind: &str, line: u32) -> Resolution {
    if matches!(
        ctx.scope.globals.get(name),
        Some(Global::Helper { def: Some(_), .. })
    ) {
        Resolution::Unresolved(Helpers::HelperUsedOtherwise.because(format!("`{name}` is a {kind} the test file defines (line {line}), which the test uses other than by calling it: a lambda standing for it would show another `__name__`")), false)
    } else {
        Resolution::Unresolved(
            Helpers::TestFileClass.because(format!(
                "`{name}` is a {kind} the test file defines (line {line}), not part of the solution"
            )),
            false,
        )
    }
}

/// Builtins that read their caller's frame or globals whatever their arguments, and those that do
/// only when called with none (`vars()`, `dir()`; `vars(x)` does not).
const FRAME_ALWAYS: &[&str] = &["globals", "locals", "eval", "exec", "breakpoint", "super"];
const FRAME_BARE: &[&str] = &["vars", "dir"];

/// Why the test's own read of the global `name` (by `loads`) cannot be flattened: a builtin that
/// reads the test's variables or globals by name at run time (the flattened expression has its
/// locals inlined away, the solution's names as parameters, loop bodies in a comprehension's
/// scope, and the solution's globals).
pub fn frame_read<'l>(
    ctx: &Ctx,
    name: &str,
    mut loads: impl Iterator<Item = &'l names::Load>,
) -> Option<Resolution> {
    if ctx.scope.globals.contains_key(name) || ctx.scope.star_import {
        return None;
    }
    let always = FRAME_ALWAYS.contains(&name);
    let bare = FRAME_BARE.contains(&name);
    if !always && !bare {
        return None;
    }
    loads
        .any(|l| l.name == name && (always || l.bare_call || !l.called))
        .then(|| {
            Resolution::Unresolved(
                Statements::FrameIntrospection.because(format!("`{name}` reads the test's variables or globals by name at run time, and a flattened expression has neither")),
                false,
            )
        })
}
