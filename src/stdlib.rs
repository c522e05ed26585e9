//! What the extractor knows of Python's standard library without reading it: which modules belong
//! to it, and which builtin classes a class may derive from without running user code.

/// Whether `module` (dotted) is in the standard library of every Python from 3.9 on.
pub fn is_stdlib(module: &str) -> bool {
    let top = module.split('.').next().unwrap_or(module);
    ruff_python_stdlib::sys::is_known_standard_library(9, top)
}

/// Builtin classes a test class may derive from without running user code at class creation.
const BUILTIN_BASES: &[&str] = &[
    "object",
    "Exception",
    "ValueError",
    "TypeError",
    "KeyError",
    "IndexError",
    "RuntimeError",
    "LookupError",
    "ArithmeticError",
    "int",
    "str",
    "float",
    "list",
    "dict",
    "tuple",
    "set",
];

/// Whether `name` is a builtin class a class may derive from without running user code at class
/// creation (when the file does not shadow it).
pub fn is_builtin_base(name: &str) -> bool {
    BUILTIN_BASES.contains(&name)
}
