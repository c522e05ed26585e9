//! A conftest's import-time code, replayed at the start of every fold.
//!
//! pytest imports each `conftest.py` once, before the test module, in a module namespace of its
//! own. Its replay is exact under these conditions, each checked here or by the caller:
//!
//! - **Order with the solution's import.** The bench loop imports the solution before it evaluates
//!   anything, so the replay runs after that import. It is replayed only when pytest ran it after
//!   the solution's import too: the conftest sits in a package of a solution module (importing
//!   `glom.test.conftest` imports `glom` first, in pytest's default import mode), or it imports
//!   the solution itself before that code (`ModuleScope::analyse_conftest`, `settle_prelude`:
//!   anything earlier stays a barrier naming its line). This is the rule the test file's own
//!   prelude follows.
//! - **Its own namespace, and first.** The replay is a lambda of its own, `(lambda: (…, None))()`,
//!   run before the whole kept expression (`assertion::with_conftests`): before the names the test
//!   file imports from the solution are bound, as pytest imports the conftest before the test
//!   module, and outside the fold's lambda, so what the conftest binds are that lambda's locals,
//!   never the fold's: no name of the test is bound, shadowed or read by it. What it reads is
//!   only its own bindings, its literal constants (written out), standard-library modules
//!   (spelled `__import__("os")`, as the test file's are; `sys` only for values fixed for the
//!   interpreter), and builtins, spelled `__import__("builtins").any` so that a solution global
//!   of the same name is not read instead. Its only free name is `__import__`, which the caller
//!   refuses when the solution may bind it. Anything else it reads (a solution name, a module
//!   that is not the standard library's or that reaches other modules, `globals()`, the
//!   conftest's `__file__`) keeps it a barrier naming the line.
//! - **Only what matters.** Harmless code (`PreludeStmt::Stmt { inert: true }`) is left out
//!   unless a replayed statement reads what it binds, as in the test file's prelude.
//! - **Once per session, once per fold.** pytest runs it once; each fold runs it once, on a fresh
//!   import of the solution. What it changes is process state or the solution's modules (its own
//!   bindings are invisible to the tests: a test cannot read a conftest's globals without importing
//!   it, which is not the standard library). Under the one assumption (tests do not depend on the
//!   order they run in) a test sees what a fresh session leaves; what pytest keeps across tests
//!   and tests visibly consume (the RNG, the environment changed by calls) is a barrier already
//!   (`shared_solution_changes`), and a conftest's fixtures and hooks are barriers or unsupported
//!   fixtures (`conftest::apply`).
//! - **A test that loads the solution again** reads a module the conftest never saw: the replay is
//!   a blocker for it (`assertion::with_conftests`).

use ruff_text_size::Ranged;

use super::items::{self, Blocker};
use super::resolve::{self, Aliases};
use super::{emit, Ctx};
use crate::module::{Global, ModuleScope, PreludeStmt};
use crate::names::{self, Replacement};
use crate::rules::{ModuleCode, Reason};
use crate::source::SourceMap;
use crate::walk::{for_each_expr, Scope};
use std::rc::Rc;

/// Builtins that reach the evaluation namespace or any module by name (`globals()` in the replay
/// is the solution's namespace, not the conftest's), or read input: a replay that uses one is refused.
const REACHING_BUILTINS: &[&str] = &[
    "globals",
    "locals",
    "vars",
    "eval",
    "exec",
    "compile",
    "breakpoint",
    "input",
    "help",
];

/// Standard-library modules that reach other modules (the solution's among them) by name or by
/// walking objects: what pytest's conftest changed through them it changed before the test file
/// imported the solution's names, which the namespace has bound already.
const REACHING_MODULES: &[&str] = &[
    "importlib",
    "gc",
    "ctypes",
    "runpy",
    "pkgutil",
    "site",
    "builtins",
    "types",
    "weakref",
];

/// The prelude entries the replay runs, in order: every one that may change state, and the inert
/// ones (`PreludeStmt::Stmt { inert: true }`: harmless calls only, as the test file's prelude
/// leaves out) that bind a name one of those reads. What the conftest binds is invisible to the
/// tests, so an inert entry nothing replayed reads changes nothing a test sees.
fn needed_entries<'s, 'a>(scope: &'s ModuleScope<'a>) -> Vec<&'s PreludeStmt<'a>> {
    let mut needed: Vec<String> = Vec::new();
    let mut kept = Vec::new();
    for entry in scope.prelude.iter().rev() {
        let (stmt, inert) = match entry {
            PreludeStmt::Stmt { stmt, inert } => (*stmt, *inert),
            PreludeStmt::ParamList { .. } | PreludeStmt::Read { .. } => {
                kept.push(entry);
                continue;
            }
        };
        let mut bound = crate::module::BoundNames::default();
        ruff_python_ast::visitor::Visitor::visit_stmt(&mut bound, stmt);
        if inert && !bound.names.iter().any(|n| needed.contains(n)) {
            continue;
        }
        // Every name the statement mentions (a superset of what it reads: enough to keep what it
        // needs).
        for_each_expr(stmt, Scope::All, |e| {
            if let ruff_python_ast::Expr::Name(n) = e {
                needed.push(n.id.to_string());
            }
        });
        kept.push(entry);
    }
    kept.reverse();
    kept
}

/// The conftest's replay as `(text, first line)`, `None` when it runs nothing; or the line and why
/// it cannot be replayed.
pub(crate) fn conftest_replay(
    scope: &ModuleScope,
    map: &SourceMap,
) -> Result<Option<(String, u32)>, (u32, Reason)> {
    replay_entries(scope, map, needed_entries(scope), true)
}

/// Module-level statements of a test file written as one expression the evaluator evaluates in the
/// namespace, as `conftest_replay` writes a conftest's (`Binding::Eval`): `None` when one cannot
/// be, or reads a name the file's module-level code binds (the fold's, not the namespace's).
pub(crate) fn namespace_replay(
    scope: &ModuleScope,
    map: &SourceMap,
    entries: Vec<&PreludeStmt>,
) -> Option<String> {
    match replay_entries(scope, map, entries, false) {
        Ok(Some((text, _))) => Some(text),
        _ => None,
    }
}

/// `entries` replayed in order in a lambda of their own; `own_names`: a read of a name the
/// module's code binds (`prelude_names`) is the replay's own.
fn replay_entries(
    scope: &ModuleScope,
    map: &SourceMap,
    entries: Vec<&PreludeStmt>,
    own_names: bool,
) -> Result<Option<(String, u32)>, (u32, Reason)> {
    let ctx = Ctx {
        scope,
        map,
        slug: "",
        errors: &[],
        shared_params: Default::default(),
        written: Default::default(),
        write_limit: usize::MAX,
        reserved_global: Default::default(),
        log_level_set: false,
    };
    let mut aliases = Aliases::default();
    let mut pieces = Vec::new();
    let mut first_line = None;
    for entry in entries {
        let range = entry.range();
        let line = map.line(range.start());
        let at = |why: Reason| (line, why);
        let PreludeStmt::Stmt { stmt, .. } = entry else {
            return Err(at(ModuleCode::ConftestCodeNotReplayable.because(format!(
                "the parametrize values `{}` on line {line} run when pytest imports it",
                map.snippet(range)
            ))));
        };
        let item = items::statement(&ctx, stmt, &|n| scope.prelude_names.contains(n));
        let what = format!("`{}` on line {line}", map.snippet(stmt.range()));
        let piece = match item.fold {
            Ok(piece) => piece,
            Err(Blocker::Silent) => continue,
            Err(Blocker::Reason(why)) => {
                return Err(at(ModuleCode::ConftestCodeNotReplayable.because(format!(
                    "{what} runs when pytest imports it and cannot be replayed: {why}"
                ))))
            }
        };
        for load in &item.loads {
            let name = load.name.as_str();
            let spelled = if scope.prelude_names.contains(name) {
                if own_names {
                    continue;
                }
                None
            } else {
                spell(scope, load)
            };
            // pytest imports the conftest before its session (`pytest_load_initial_conftests`):
            // no handler of its logging plugin is on the root logger yet, so `basicConfig` and
            // `logging.info(…)` configure it there; replayed in the check, they meet pytest's
            // handlers and do nothing.
            if spelled.as_ref().is_some_and(|v| {
                v.text.starts_with("__import__(\"logging\")")
                    || v.text.starts_with("__import__(\"logging.")
            }) {
                return Err(at(ModuleCode::ConftestCodeUsesLogging.because(format!(
                    "{what} runs when pytest imports it, before pytest's session puts its logging handlers on the root logger, and uses `{name}` (`logging`); replayed in the check, under those handlers, a `logging.basicConfig` or `logging.info` there would do nothing"
                ))));
            }
            match spelled {
                Some(value) => {
                    aliases.insert(name.to_string(), Replacement::Value(Rc::new(value)));
                }
                None => {
                    return Err(at(ModuleCode::ConftestCodeReadsOutsideName.because(format!(
                        "{what} runs when pytest imports it and reads `{name}`, which the replay cannot reproduce in the solution's namespace"
                    ))))
                }
            }
        }
        first_line.get_or_insert(line);
        pieces.push(piece);
    }
    let Some(first_line) = first_line else {
        return Ok(None);
    };
    // Every load of `sys` was checked above; a load of the same name through a nested read is
    // among `item.loads` too.
    let steps = emit::steps(&ctx, pieces, &aliases).map_err(|why| {
        (
            first_line,
            ModuleCode::ConftestCodeNotReplayable.because(format!(
                "its code from line {first_line} cannot be written as an expression: {why}"
            )),
        )
    })?;
    if steps.is_empty() {
        return Ok(None);
    }
    Ok(Some((
        format!("(lambda: ({}, None))()", steps.join(", ")),
        first_line,
    )))
}

/// How a name the conftest reads is written where the conftest's namespace is gone: a
/// standard-library module as `__import__("m")`, a literal constant as its value, `sys` only for
/// values fixed for the interpreter, a builtin as `__import__("builtins").x`; `None` for anything
/// else.
fn spell(scope: &ModuleScope, load: &names::Load) -> Option<names::Rendered> {
    let name = load.name.as_str();
    match scope.globals.get(name) {
        Some(Global::Import {
            module,
            stdlib: Some(text),
            ..
        }) if !REACHING_MODULES.contains(&module.split('.').next().unwrap_or("")) => {
            Some(names::import_value(text))
        }
        // A literal the conftest never changes: its value.
        Some(Global::Constant { value, .. }) => Some((**value).clone()),
        Some(Global::Import { module, .. }) if module == "sys" && name == "sys" => {
            resolve::SYS_VALUES
                .contains(&load.attr.as_deref().unwrap_or(""))
                .then(|| names::import_value("__import__(\"sys\")"))
        }
        None if !scope.star_import
            && !name.starts_with("__")
            && !REACHING_BUILTINS.contains(&name)
            && ruff_python_stdlib::builtins::is_python_builtin(name, 14, false) =>
        {
            Some(names::import_value(&format!(
                "__import__(\"builtins\").{name}"
            )))
        }
        _ => None,
    }
}

/// A fixture parameter's default written out where its value is the same object whenever it is
/// written: an immutable literal, or a name `spell` writes as a literal constant of the conftest.
fn default_value(
    scope: &ModuleScope,
    map: &SourceMap,
    default: &ruff_python_ast::Expr,
) -> Option<names::Rendered> {
    match default {
        ruff_python_ast::Expr::Name(n) => match scope.globals.get(n.id.as_str()) {
            Some(Global::Constant { value, source, .. }) if names::is_immutable_literal(source) => {
                Some((**value).clone())
            }
            _ => None,
        },
        e if names::is_immutable_literal(e) => names::render(e, &Default::default(), map).ok(),
        _ => None,
    }
}

/// A conftest fixture that returns a value, as the test's fold replays it (see
/// `conftest::apply`).
pub(crate) struct ConftestFixture {
    /// The value's expression, valid in the test's evaluation namespace: its free names are the
    /// fixtures it requests, `bindings`' names, `__import__`, the renamer `_bx_F` (see
    /// `qualnames`) and the names of `constants`, which the fold binds first.
    pub text: String,
    /// The same value with each of `constants` written out, for a check in which none of them is
    /// read twice (one object either way).
    pub alone: String,
    /// The requested fixtures the expression reads.
    pub reads: Vec<String>,
    /// What the evaluator must bind for it: the conftest's own imports from the solution, under
    /// names of the extractor's (`_bx_c0_CliRunner`), as snapshots taken when the solution is
    /// loaded, which is when pytest imported the conftest (after the solution: the caller checks).
    pub bindings: Vec<crate::model::Binding>,
    /// The conftest's mutable constants it reads (`SAMPLE = [3, 1, 2]`): the reserved name `text`
    /// reads it by (`_bx_c0_SAMPLE`), its value, and how many times the value reads it (a read
    /// that may repeat, in a lambda or a comprehension, counts twice).
    pub constants: Vec<(String, String, usize)>,
}

/// The value of a conftest fixture `def name(params): return expr` written for the test's
/// namespace. pytest runs the fixture function in the conftest's globals when a test requests
/// it; every name `expr` reads must mean there what it meant in the conftest:
/// - a fixture it requests: the fold binds it first, under its own name;
/// - a parameter with a default (no request: pytest passes the default, whatever fixture has the
///   name): the default, when it is an immutable literal or a name spelled as below (a literal
///   constant of the conftest), whose value is the one the `def` evaluated at import;
/// - a name the conftest imports from the solution (`from click.testing import CliRunner`), never
///   rebound: a binding of the evaluator's under a reserved name (`prefix` + the name), the object
///   the solution's module holds once loaded, as the conftest's import took it;
/// - a mutable constant of the conftest (a list, a dict, a set: one object in pytest, which every
///   fixture that reads it hands on): read by the reserved name `prefix` + the name, which the
///   test's fold binds once to its value (`setup`), unless the check reads it once only; refused
///   when the conftest's replayed import-time code reads it too (that replay writes it out);
/// - a standard-library module, an immutable literal constant, a builtin: spelled as the
///   conftest's replay spells them (`spell`).
///
/// Anything else (a helper or class of the conftest, `request`, the conftest's `__file__`) is the
/// reason it cannot be replayed.
///
/// The value is computed where pytest computes it: in a function named after the fixture (`name`)
/// whose globals' `__name__` is the conftest's module (`module`), when it may run code (a call
/// that reads its caller's globals: `type(…)`, `collections.namedtuple`, a functional
/// `enum.Enum`, the solution's own code) or creates a lambda or generator (its `__module__`, its
/// `__qualname__` `name.<locals>.<lambda>`): see `qualnames`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn conftest_fixture(
    scope: &ModuleScope,
    map: &SourceMap,
    expr: &ruff_python_ast::Expr,
    params: &[String],
    defaults: &[(String, &ruff_python_ast::Expr)],
    prefix: &str,
    name: &str,
    module: &str,
) -> Result<ConftestFixture, String> {
    use crate::model::Binding;
    let fixture = name;
    let mut aliases: rustc_hash::FxHashMap<String, Replacement> = Default::default();
    let mut alone: rustc_hash::FxHashMap<String, Replacement> = Default::default();
    let mut bindings = Vec::new();
    let mut reads = Vec::new();
    let mut constants: Vec<(String, String, usize)> = Vec::new();
    let replayed = replayed_names(scope);
    for load in names::Facts::of(expr).loads {
        let name = load.name.as_str();
        if let Some((_, default)) = defaults.iter().find(|(p, _)| p == name) {
            if aliases.contains_key(name) {
                continue;
            }
            let value = default_value(scope, map, default).ok_or_else(|| {
                format!(
                    "its parameter `{name}` has the default `{}`, which pytest passes instead of a fixture and evaluated once when it imported the conftest",
                    map.snippet(default.range())
                )
            })?;
            aliases.insert(name.to_string(), Replacement::Value(Rc::new(value)));
            continue;
        }
        if params.iter().any(|p| p == name) {
            if name == "request" {
                return Err("it reads `request`, pytest's own fixture".to_string());
            }
            if !reads.iter().any(|r| r == name) {
                reads.push(name.to_string());
            }
            continue;
        }
        if let Some(Global::Constant {
            value,
            source,
            range,
        }) = scope.globals.get(name)
        {
            if !names::is_immutable_literal(source) {
                let line = map.line(range.start());
                if replayed.iter().any(|r| r == name) {
                    return Err(format!(
                        "it reads the conftest's mutable constant `{name}` (line {line}), which the conftest's own import-time code reads too: one object in pytest, which the check could not share between that code's replay and this value"
                    ));
                }
                let reserved = format!("{prefix}{name}");
                let weight = 1 + usize::from(load.repeated);
                match constants.iter_mut().find(|c| c.0 == reserved) {
                    Some(c) => c.2 += weight,
                    None => constants.push((reserved.clone(), value.text.clone(), weight)),
                }
                aliases.insert(
                    name.to_string(),
                    Replacement::Value(Rc::new(names::Rendered::name(&reserved))),
                );
                alone.insert(name.to_string(), Replacement::Value(value.clone()));
                continue;
            }
        }
        if aliases.contains_key(name) {
            continue;
        }
        let from_solution = scope.solution_bindings.iter().find_map(|(_, b)| match b {
            Binding::Attr {
                name: n,
                module,
                attr,
            } if n == name => Some(Binding::Attr {
                name: format!("{prefix}{name}"),
                module: module.clone(),
                attr: attr.clone(),
            }),
            Binding::Module { name: n, module } if n == name => Some(Binding::Module {
                name: format!("{prefix}{name}"),
                module: module.clone(),
            }),
            _ => None,
        });
        let still_bound = matches!(
            scope.globals.get(name),
            Some(Global::SolutionName { .. } | Global::SolutionModule)
        );
        let spelled = match from_solution {
            Some(binding) if still_bound => {
                let reserved = format!("{prefix}{name}");
                bindings.push(binding);
                Some(names::Rendered::name(&reserved))
            }
            _ => spell(scope, &load),
        };
        match spelled {
            Some(value) => {
                let value = Rc::new(value);
                aliases.insert(name.to_string(), Replacement::Value(value.clone()));
                alone.insert(name.to_string(), Replacement::Value(value));
            }
            None => return Err(unreproduced(scope, name)),
        }
    }
    let render = |aliases| {
        names::render(expr, aliases, map)
            .map(|r| r.text)
            .map_err(|c| format!("`{}` would be captured by `{}`", c.name, c.captured_by))
    };
    let text = render(&aliases)?;
    let alone_text = render(&alone)?;
    // Where pytest computes it: in the conftest's module, in a function named after the fixture.
    let creates = super::qualnames::creates_named(expr);
    let runs_code = !super::effects::expr_is_inert(expr, &|_| true);
    let (text, alone_text) = if creates || runs_code {
        // Its reads of the fold's locals are the function's arguments: a function made over other
        // globals has no closure.
        let mut args: Vec<String> = reads.clone();
        let mut alone_args = args.clone();
        args.extend(constants.iter().map(|c| c.0.clone()));
        let wrap = |text: &str, args: &[String]| {
            let list = args.join(", ");
            let lambda = if args.is_empty() {
                format!("lambda: {text}")
            } else {
                format!("lambda {list}: {text}")
            };
            if creates {
                format!(
                    "{}({lambda}, \"{fixture}\", \"{fixture}\", \".<locals>.\", \"{module}\")({list})",
                    super::qualnames::NAME
                )
            } else {
                format!("__import__(\"types\").FunctionType(({lambda}).__code__, {{**__import__(\"builtins\").globals(), \"__name__\": \"{module}\"}})({list})")
            }
        };
        let wrapped = wrap(&text, &args);
        alone_args.truncate(reads.len());
        (wrapped, wrap(&alone_text, &alone_args))
    } else {
        (text, alone_text)
    };
    Ok(ConftestFixture {
        text,
        alone: alone_text,
        reads,
        bindings,
        constants,
    })
}

/// Why a name a conftest fixture reads is not written for the test's namespace, in words that
/// say what the name is in the conftest.
fn unreproduced(scope: &ModuleScope, name: &str) -> String {
    match scope.globals.get(name) {
        Some(Global::SolutionModule) => format!(
            "it reads `{name}`, the solution module as the conftest imports it, which the extractor does not bind for a conftest's fixture"
        ),
        Some(Global::Helper { kind, line, .. }) => format!(
            "it reads `{name}`, a {kind} the conftest defines (line {line}), which exists only in the conftest"
        ),
        Some(Global::Computed { line, .. }) => format!(
            "it reads `{name}`, which the conftest computes (line {line})"
        ),
        Some(Global::Import { module, .. }) => format!(
            "it reads `{name}`, the conftest's import of `{module}`, which the extractor does not write for the test's namespace"
        ),
        Some(Global::SolutionName { .. }) => format!(
            "it reads `{name}`, which the conftest imports from the solution but binds again"
        ),
        _ if scope.star_import => format!(
            "it reads `{name}`, which the conftest's `from … import *` of the solution may bind, and the extractor binds for a conftest's fixture only the names it imports by name"
        ),
        _ => format!("it reads `{name}`, which cannot be reproduced outside the conftest"),
    }
}

/// The names the conftest's import-time replay reads (`needed_entries`): a mutable constant among
/// them is an object that replay reads too, written out there (`spell`).
fn replayed_names(scope: &ModuleScope) -> Vec<String> {
    let mut out = Vec::new();
    for entry in needed_entries(scope) {
        if let PreludeStmt::Stmt { stmt, .. } = entry {
            for_each_expr(*stmt, Scope::All, |e| {
                if let ruff_python_ast::Expr::Name(n) = e {
                    out.push(n.id.to_string());
                }
            });
        }
    }
    out
}
