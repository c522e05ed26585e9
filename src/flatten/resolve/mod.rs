//! Names outside the test's locals: which refer to the solution (and under which of its own names),
//! which are constants of the test file, and which the evaluation namespace cannot have.

mod aliases;
mod asserting_helper;
mod compiled_helper;
mod globals;
mod helper_lambda;

pub use aliases::{is_alias_stmt, loader_calls, local_aliases, Aliases};
pub(super) use asserting_helper::helper_check;
pub use globals::{frame_read, resolve_global};

use ruff_python_ast::{Expr, Stmt, StmtFunctionDef};

use super::Ctx;
use crate::module::Global;
use crate::names::{self, Replacement};
use crate::rules::Reason;
use crate::walk::{any_expr, any_stmt, Scope};

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

/// What a function's own body does (not its nested functions, classes or lambdas): whether it
/// yields (a call then only makes a generator, and runs none of the body) and whether it declares
/// names `global` or `nonlocal`.
pub(super) struct FunctionFacts {
    pub yields: bool,
    pub declares: bool,
}

impl FunctionFacts {
    pub fn of(def: &StmtFunctionDef) -> FunctionFacts {
        FunctionFacts {
            yields: any_expr(&def.body[..], Scope::Own, |e| {
                matches!(e, Expr::Yield(_) | Expr::YieldFrom(_) | Expr::Await(_))
            }),
            declares: any_stmt(&def.body[..], Scope::Own, |s| {
                matches!(s, Stmt::Global(_) | Stmt::Nonlocal(_))
            }),
        }
    }
}
