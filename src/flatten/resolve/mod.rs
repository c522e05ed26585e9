//! Names outside the test's locals: which refer to the solution (and under which of its own names),
//! which are constants of the test file, and which the evaluation namespace cannot have.

use std::rc::Rc;

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};
use ruff_text_size::Ranged;

use super::items::Aliases;
use super::Ctx;
use crate::model::{Origin, OriginRole};
use crate::module::{BoundNames, Global};
use crate::names::{self, Replacement};
use crate::rules::{Helpers, Reason, Statements};

/// Attributes of `sys` that are values fixed for the interpreter (never the caller's frame or
/// module, never state a test or pytest changes: not `argv`, `path`, `modules`, `_getframe`):
/// `sys.platform` read through `__import__("sys")` is the object the test file's `sys` gives.
/// (`sys` is otherwise not spelled out: `names::imports::reads_the_callers_module`.)
pub const SYS_VALUES: &[&str] = &[
    "platform",
    "version_info",
    "version",
    "hexversion",
    "implementation",
    "maxsize",
    "maxunicode",
    "byteorder",
    "float_info",
    "int_info",
];

/// `sys.<one of SYS_VALUES>` where `sys` is the test file's plain `import sys` (not rebound, nothing
/// shadows `__import__`): its spelling in the solution's namespace.
pub fn sys_value(ctx: &Ctx, name: &str, attr: Option<&str>) -> Option<names::Rendered> {
    let is_sys = matches!(ctx.scope.globals.get(name),
        Some(Global::Import { module, stdlib: None, .. }) if module == "sys" && name == "sys");
    (is_sys && attr.is_some_and(|a| SYS_VALUES.contains(&a)) && !shadows_import(ctx))
        .then(|| names::import_value("__import__(\"sys\")"))
}

pub enum Resolution {
    Ok,
    /// Resolved to a standard-library import's spelling (the seventh shape, kept).
    Stdlib,
    /// Unresolved, with why, and whether it is an imported module.
    Unresolved(Reason, bool),
}

/// Local aliases of the solution, bound once each in the test: `sol = _load_solution()`,
/// `f = sol.f`, `from solution import f`.
pub fn local_aliases(ctx: &Ctx, f: &StmtFunctionDef) -> Aliases {
    let mut bound = BoundNames::default();
    for stmt in &f.body {
        bound.visit_stmt(stmt);
    }
    let mut scan = AliasScan {
        ctx,
        f,
        bound: bound.names,
        aliases: Aliases::default(),
    };
    for stmt in &f.body {
        match stmt {
            Stmt::Assign(a) => {
                if let [Expr::Name(t)] = a.targets.as_slice() {
                    scan.assignment(t.id.as_str(), &a.value);
                }
            }
            Stmt::Import(i) => scan.import(stmt, i),
            Stmt::ImportFrom(i) if i.level == 0 && !is_solution_import(ctx, i) => {
                scan.stdlib_from_import(stmt, i)
            }
            // `from solution import x` in the test binds a local there (`items`), replayed.
            _ => {}
        }
    }
    scan.aliases
}

/// The test's statements read in order for aliases of the solution and of standard-library
/// imports; only a name the test binds exactly once can be an alias.
struct AliasScan<'c, 's, 'a, 'f> {
    ctx: &'c Ctx<'s, 'a>,
    f: &'f StmtFunctionDef,
    /// Every binding of a name in the test (a name bound twice appears twice).
    bound: Vec<String>,
    aliases: Aliases,
}

impl AliasScan<'_, '_, '_, '_> {
    fn binds_once(&self, n: &str) -> bool {
        self.bound.iter().filter(|b| b.as_str() == n).count() == 1
    }

    /// `t = <the solution module>` or `t = <the solution module>.attr`.
    fn assignment(&mut self, t: &str, value: &Expr) {
        if !self.binds_once(t) {
            return;
        }
        // `t = sol.X` is no alias: it reads the module's `X` at that moment, which a later read
        // need not see (`before = sol.COUNT; sol.sell(3)`); it is replayed as any assignment is.
        if is_solution_module(self.ctx, &self.aliases, value) {
            self.aliases
                .insert(t.to_string(), module_replacement(self.ctx));
        }
    }

    /// `import solution [as s]`, or a standard-library `import m [as n]`.
    fn import(&mut self, stmt: &Stmt, i: &ruff_python_ast::StmtImport) {
        for a in &i.names {
            let module = a.name.to_string();
            let bound_as = a.asname.as_ref().unwrap_or(&a.name).to_string();
            if self.ctx.scope.solution_modules.contains(&module)
                && (a.asname.is_some() || !module.contains('.'))
                && self.binds_once(&bound_as)
            {
                self.aliases.insert(bound_as, module_replacement(self.ctx));
            } else if let Some(text) = names::stdlib_import(&module, a.asname.is_some()) {
                let top = module.split('.').next().unwrap_or_default();
                let bound_as = a.asname.as_ref().map_or(top, |n| n.as_str());
                self.stdlib_alias(stmt, bound_as, &text);
            }
        }
    }

    /// `from m import x [as y]` of the standard library.
    fn stdlib_from_import(&mut self, stmt: &Stmt, i: &ruff_python_ast::StmtImportFrom) {
        let module = i.module.as_ref().map(|m| m.to_string()).unwrap_or_default();
        for a in &i.names {
            let bound_as = a.asname.as_ref().unwrap_or(&a.name).as_str();
            if let Some(text) = names::stdlib_from_import(&module, a.name.as_str()) {
                self.stdlib_alias(stmt, bound_as, &text);
            }
        }
    }

    /// A standard-library import's spelling for `bound_as`, where that is exact.
    fn stdlib_alias(&mut self, stmt: &Stmt, bound_as: &str, text: &str) {
        if self.binds_once(bound_as) && stdlib_alias_ok(self.ctx, self.f, stmt, bound_as) {
            self.aliases.insert(
                bound_as.to_string(),
                Replacement::Value(Rc::new(names::import_value(text))),
            );
        }
    }
}

fn is_solution_import(ctx: &Ctx, i: &ruff_python_ast::StmtImportFrom) -> bool {
    let module = i.module.as_ref().map(|m| m.as_str()).unwrap_or_default();
    ctx.scope
        .solution_modules
        .iter()
        .any(|m| module == m || module.starts_with(&format!("{m}.")))
}

/// Whether a standard-library import inside the test (a top-level statement of it, binding `name`
/// once) can be spelled out wherever the test reads `name`: the test reads it only after the import
/// (a read before it is an `UnboundLocalError` in pytest), nothing else in the test binds, deletes or
/// declares it (walrus targets, nested scopes, `global`/`nonlocal` included), and the solution does
/// not define `__import__`. Importing the standard library runs no user code, so the import need not
/// run where it was written.
fn stdlib_alias_ok(ctx: &Ctx, f: &StmtFunctionDef, import: &Stmt, name: &str) -> bool {
    !shadows_import(ctx) && reads_only_after(f, import, name)
}

/// Whether the test reads `name` only after `import` binds it, and nothing else in it binds,
/// deletes or declares the name.
fn reads_only_after(f: &StmtFunctionDef, import: &Stmt, name: &str) -> bool {
    struct Uses<'n> {
        name: &'n str,
        before: ruff_text_size::TextSize,
        bad: bool,
    }
    impl<'e> Visitor<'e> for Uses<'_> {
        fn visit_stmt(&mut self, stmt: &'e Stmt) {
            match stmt {
                Stmt::Global(g) if g.names.iter().any(|n| n.as_str() == self.name) => {
                    self.bad = true
                }
                Stmt::Nonlocal(g) if g.names.iter().any(|n| n.as_str() == self.name) => {
                    self.bad = true
                }
                _ => {}
            }
            visitor::walk_stmt(self, stmt);
        }
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Name(n) = expr {
                if n.id.as_str() == self.name
                    && (!matches!(n.ctx, ruff_python_ast::ExprContext::Load)
                        || n.range.start() < self.before)
                {
                    self.bad = true;
                }
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut uses = Uses {
        name,
        before: import.range().start(),
        bad: false,
    };
    for stmt in &f.body {
        uses.visit_stmt(stmt);
    }
    // Parameters are bound before the body: the test would read the parameter until the import.
    !uses.bad && !f.parameters.iter().any(|p| p.name().as_str() == name)
}

/// Whether a statement only binds a solution alias (it is then not replayed: the namespace is the
/// solution's, so the alias is spelled out where it is used).
pub fn is_alias_stmt(stmt: &Stmt, aliases: &Aliases) -> bool {
    match stmt {
        Stmt::Assign(a) => {
            matches!(a.targets.as_slice(), [Expr::Name(t)] if aliases.contains_key(t.id.as_str()))
        }
        Stmt::Import(i) => i
            .names
            .iter()
            .all(|n| aliases.contains_key(n.asname.as_ref().unwrap_or(&n.name).as_str())),
        Stmt::ImportFrom(i) => i
            .names
            .iter()
            .all(|n| aliases.contains_key(n.asname.as_ref().unwrap_or(&n.name).as_str())),
        _ => false,
    }
}

pub fn is_solution_module(ctx: &Ctx, aliases: &Aliases, expr: &Expr) -> bool {
    match expr {
        Expr::Name(n) if aliases.contains_key(n.id.as_str()) => {
            matches!(
                aliases.get(n.id.as_str()),
                Some(Replacement::SolutionModule(_))
            )
        }
        other => ctx.scope.is_solution_module_expr(other),
    }
}

/// How many distinct solution modules a test sees: the one the file imports or loads at module
/// level (if the test uses it), plus one per call of a loader inside the test. One namespace can
/// stand for one module only.
pub fn loader_calls(ctx: &Ctx, f: &StmtFunctionDef) -> Vec<ruff_text_size::TextRange> {
    struct Calls<'c, 's, 'a> {
        ctx: &'c Ctx<'s, 'a>,
        out: Vec<ruff_text_size::TextRange>,
    }
    impl<'e> Visitor<'e> for Calls<'_, '_, '_> {
        fn visit_expr(&mut self, expr: &'e Expr) {
            if let Expr::Call(call) = expr {
                if matches!(call.func.as_ref(), Expr::Name(n) if self.ctx.scope.loaders.contains(n.id.as_str()))
                {
                    self.out.push(call.range());
                }
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut calls = Calls {
        ctx,
        out: Vec::new(),
    };
    for stmt in &f.body {
        calls.visit_stmt(stmt);
    }
    calls.out
}

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
struct Lookup<'l, 'c, 's, 'a> {
    ctx: &'c Ctx<'s, 'a>,
    origins: &'l mut Vec<Origin>,
    solution_names: &'l mut Vec<String>,
    helpers: Vec<String>,
}

impl Lookup<'_, '_, '_, '_> {
    /// What the global `name` (read as `name.attr` if `attr`) stands for; its spelling goes into
    /// `map`.
    fn global(
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
        match self.helper_lambda(name, def) {
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
/// solution's): the evaluation namespace need not have it.
fn imported_elsewhere(name: &str, module: &str, line: u32) -> Resolution {
    Resolution::Unresolved(
        Statements::TestFileImport.because(if module == name {
            format!("`{name}` is a module the test file imports (line {line}); the evaluation namespace is the solution's, which need not have it")
        } else {
            format!("`{name}` comes from `{module}`, imported by the test file (line {line}); the evaluation namespace is the solution's, which need not have it")
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
    fn helper_lambda(
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
        Ok(lambda_of(&params, &body_text, introduced))
    }

    /// Resolve every free name of a helper's body (not its parameters or locals) as the
    /// assertion's are: their spellings, and every name those spellings read.
    fn body_names(
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
/// import; defaults are immutable literals.
fn check_signature(ctx: &Ctx, def: &StmtFunctionDef) -> Result<(), Reason> {
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
            annotation_ok(q.annotation()) && q.default().is_none_or(names::is_immutable_literal)
        })
    {
        return Err(Helpers::HelperSignatureRunsCode
            .because("its annotations or defaults run code when it is defined"));
    }
    Ok(())
}

/// The lambda's parameter list, as the `def` wrote it (without annotations).
fn lambda_params(ctx: &Ctx, p: &ruff_python_ast::Parameters) -> Vec<String> {
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
fn check_plain_body(exprs: &[&Expr]) -> Result<(), Reason> {
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

/// Whether `__import__`, which the import spellings call, may not be the builtin in the
/// evaluator's namespace. Only a `from solution import *` could bind it there, and the evaluator
/// refuses a star import that does (`Binding::Star`): never.
pub fn shadows_import(_ctx: &Ctx) -> bool {
    false
}

/// `module.attr` for the solution module: written `<binding>.attr`, a read of the module's
/// attribute when the expression runs, as the test's read is (a module `__getattr__` or a special
/// name answers it as it answers pytest).
pub fn module_attr(
    ctx: &Ctx,
    name: &str,
    attr: &str,
    map: &mut Aliases,
    solution_names: &mut Vec<String>,
) -> Resolution {
    solution_names.push(attr.to_string());
    map.insert(name.to_string(), module_replacement(ctx));
    Resolution::Ok
}

/// What a name bound to the solution module is written as: the module's binding.
pub fn module_replacement(ctx: &Ctx) -> Replacement {
    Replacement::SolutionModule(Some(ctx.scope.module_binding.clone()))
}

#[cfg(test)]
mod tests {
    use crate::{extract, Options, Status};

    fn first(test: &str) -> crate::Assertion {
        extract(test, &Options::new("tests/test_x.py"))
            .assertions
            .remove(0)
    }

    #[test]
    fn sys_values_fixed_for_the_interpreter_are_spelled_out() {
        let a = first("import sys\nfrom solution import f\n\ndef test_f():\n    assert f(sys.maxsize) and sys.version_info >= (3,)\n");
        assert_eq!(a.status, Status::Kept, "{:?}", a.reason);
        assert_eq!(
            a.expr.as_deref(),
            Some("f(__import__(\"sys\").maxsize) and __import__(\"sys\").version_info >= (3,)")
        );
    }

    #[test]
    fn any_other_read_of_sys_is_not() {
        // `argv` is pytest's in pytest; `modules` reaches the solution; `sys` alone may be passed on.
        for read in [
            "sys.argv",
            "sys.modules",
            "sys",
            "sys.platform and sys.path",
        ] {
            let a = first(&format!(
                "import sys\nfrom solution import f\n\ndef test_f():\n    assert f({read})\n"
            ));
            assert_eq!(a.status, Status::Dropped, "{read}: {:?}", a.expr);
        }
    }
}

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
pub(super) fn helper_check(
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
    Ok(lambda_of(&params, &groups.join(" and "), introduced))
}

/// `(lambda params: body)`, whose free names are `free` (the names its body reads from outside).
fn lambda_of(params: &[String], body: &str, mut free: Vec<String>) -> names::Rendered {
    free.sort();
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

/// What a function's own body does (not its nested functions, classes or lambdas): whether it
/// yields (a call then only makes a generator, and runs none of the body) and whether it declares
/// names `global` or `nonlocal`.
#[derive(Default)]
pub(super) struct FunctionFacts {
    pub yields: bool,
    pub declares: bool,
}

impl FunctionFacts {
    pub fn of(def: &StmtFunctionDef) -> FunctionFacts {
        let mut facts = FunctionFacts::default();
        for stmt in &def.body {
            facts.visit_stmt(stmt);
        }
        facts
    }
}

impl<'a> Visitor<'a> for FunctionFacts {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
            Stmt::Global(_) | Stmt::Nonlocal(_) => self.declares = true,
            _ => visitor::walk_stmt(self, stmt),
        }
    }
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Lambda(_) => {}
            Expr::Yield(_) | Expr::YieldFrom(_) | Expr::Await(_) => self.yields = true,
            _ => visitor::walk_expr(self, expr),
        }
    }
}
