//! Standard-library imports spelled as expressions (`__import__(...)`), so that a name an import
//! binds can be substituted by a value that means the same in any namespace.

use ruff_python_ast::OperatorPrecedence as Prec;

use super::render::Rendered;

/// Whether `module` (dotted) is in the standard library of every Python from 3.9 to 3.14 (a module
/// removed on the way, such as `distutils`, may be some other package's).
fn is_stdlib_module(module: &str) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    ruff_python_stdlib::sys::is_known_standard_library(9, top)
        && ruff_python_stdlib::sys::is_known_standard_library(14, top)
        && module.split('.').all(is_stdlib_module_part)
}

/// Standard-library modules whose results depend on which module the calling code or the objects
/// it made belong to (pickling finds a class, or a sentinel's name, as an attribute of its module:
/// for what the test file's module-level code made, the test module, whose names the evaluator's
/// registered test module does not hold, as the check binds them as its locals; `inspect` and `sys`
/// read frames and module names): they are not spelled out, and what reads them stays dropped.
fn reads_the_callers_module(module: &str) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    matches!(
        top,
        "pickle"
            | "_pickle"
            | "copyreg"
            | "shelve"
            | "pickletools"
            | "inspect"
            | "sys"
            | "traceback"
            | "warnings"
            | "doctest"
            | "unittest"
    )
}

/// `import M` / `import M as N` of the standard library, written as an expression giving the
/// object the statement binds, in any namespace (the bytecode's own steps):
/// - `import a.b.c` binds the top package after importing `a.b.c`: `__import__("a.b.c")` is exactly
///   that (`IMPORT_NAME` with no `fromlist` returns the top package);
/// - `import a.b.c as d` binds `a.b.c` reached by attributes (`IMPORT_FROM b`, then `c`):
///   `__import__("a.b.c").b.c`.
pub fn stdlib_import(module: &str, alias: bool) -> Option<String> {
    if !is_stdlib_module(module) || reads_the_callers_module(module) {
        return None;
    }
    let rest: Vec<&str> = module.split('.').skip(1).collect();
    Some(if alias && !rest.is_empty() {
        format!("__import__(\"{module}\").{}", rest.join("."))
    } else {
        format!("__import__(\"{module}\")")
    })
}

/// `from M import X` of the standard library (absolute, not `*`): `IMPORT_NAME M` with
/// `fromlist=("X",)` (which imports the submodule `M.X` when `M` is a package without an attribute
/// `X`), then `IMPORT_FROM X`, an attribute read: `__import__("M", fromlist=("X",)).X`.
pub fn stdlib_from_import(module: &str, name: &str) -> Option<String> {
    (is_stdlib_module(module)
        && !reads_the_callers_module(module)
        && name != "*"
        && is_stdlib_module_part(name))
    .then(|| format!("__import__(\"{module}\", fromlist=(\"{name}\",)).{name}"))
}

/// `import pickle` (`name` `None`) or `from pickle import dumps` / `loads`, spelled out for a file
/// that pickles literal values only (`module::pickle`): by value, pickle looks up no name.
pub fn pickle_on_literals(module: &str, name: Option<&str>) -> Option<String> {
    match (module, name) {
        ("pickle", None) => Some("__import__(\"pickle\")".to_string()),
        ("pickle", Some(n @ ("dumps" | "loads"))) => {
            Some(format!("__import__(\"pickle\", fromlist=(\"{n}\",)).{n}"))
        }
        _ => None,
    }
}

/// Two plain imports binding the same top name (`import os`, then `import os.path`): the name is the
/// same top module either way, and both submodules were imported. One spelling stands for both
/// when one module contains the other (`__import__("os.path")`); siblings (`a.b`, `a.c`) have none.
/// `earlier`: the spelling of the earlier import of that name (`None` if it has none).
pub fn merge_plain_imports(earlier: Option<&str>, new: Option<String>) -> Option<String> {
    let plain = |s: &str| {
        s.strip_prefix("__import__(\"")
            .and_then(|r| r.strip_suffix("\")"))
            .filter(|m| !m.contains('"'))
            .map(str::to_string)
    };
    let (Some(earlier), Some(new)) = (earlier, new.as_deref()) else {
        return None;
    };
    let (Some(a), Some(b)) = (plain(earlier), plain(new)) else {
        // The earlier binding was not a plain import (an alias, a `from` import): replaced.
        return Some(new.to_string());
    };
    let within =
        |outer: &str, inner: &str| inner == outer || inner.starts_with(&format!("{outer}."));
    if within(&a, &b) {
        Some(new.to_string())
    } else if within(&b, &a) {
        Some(earlier.to_string())
    } else {
        None
    }
}

fn is_stdlib_module_part(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// A standard-library import's spelling as a value to substitute: a call, then attributes.
pub fn import_value(text: &str) -> Rendered {
    Rendered {
        text: text.to_string(),
        prec: Prec::CallAttribute,
        free: vec!["__import__".to_string()],
    }
}

/// Whether a substituted value is a standard-library import's spelling (not a solution name).
pub fn is_import_value(value: &Rendered) -> bool {
    value.text.starts_with("__import__(\"") && value.free == ["__import__"]
}
