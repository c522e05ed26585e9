//! The source-compile helpers shared by nested definitions (`compiled`) and test-file helpers
//! (`resolve::compiled_helper`): which names a body reads from outside, which builtins read the
//! code's frame or globals, the compile flags of the module's future imports, and a string literal.

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{Expr, Stmt};

use crate::module::BoundNames;
use crate::names::{Facts, Load};

/// Builtins that answer from their caller's frame or class cell: the compiled code's own frame,
/// as pytest's code's is.
pub(crate) const FRAME: &[&str] = &["super", "__class__", "locals", "vars", "dir", "compile"];

/// Attributes that read where code lives or who called it (frames, source files, tracebacks):
/// the check's code is not where pytest's is, so a body reading them is refused.
const INTROSPECTION: &[&str] = &[
    "_getframe",
    "f_back",
    "f_locals",
    "f_globals",
    "f_code",
    "f_lineno",
    "co_filename",
    "currentframe",
    "stack",
    "getsource",
    "getsourcelines",
    "getfile",
    "getsourcefile",
    "getmodule",
    "extract_stack",
    "format_stack",
    "print_stack",
    "tb_frame",
    "tb_lineno",
    "__traceback__",
    "extract_tb",
    "format_tb",
    "print_tb",
    "walk_tb",
    "format_exc",
    "print_exc",
    "format_exception",
    "print_exception",
    "TracebackException",
    // The module's own dict or a module found by name: the evaluation namespace in a check.
    "__globals__",
    "import_module",
    "modules",
    "get_type_hints",
    "get_annotations",
    "eval",
    "exec",
    "globals",
];

/// Names through which code finds its own module (by name, or its import machinery): in a check
/// that is the evaluation namespace's stand-in, which holds the solution's names, not the test
/// module's.
const MODULE_SELF: &[&str] = &[
    "__name__",
    "__import__",
    "__file__",
    "__spec__",
    "__loader__",
];

/// An annotation written as a string: resolved later, in the module `__module__` names.
fn is_string(e: &Expr) -> bool {
    matches!(e, Expr::StringLiteral(_) | Expr::FString(_))
}

/// Whether the module has `from __future__ import annotations` (every annotation a string).
pub(crate) fn has_future_annotations(source: &str) -> bool {
    future_flags(source) != "0"
}

/// Builtins that read the code's globals by name: those are the evaluation namespace, which holds
/// the solution's names, not every name of the test module, so code calling them is refused.
pub(crate) const GLOBALS_READERS: &[&str] = &["globals", "eval", "exec", "breakpoint"];

/// The loads of a function's body that are not its own names (its parameters, what it binds):
/// free names, read through a closure or as globals. Nested functions' and classes' free names
/// count too (a class body's own names are not subtracted: a method does not see them).
/// `None` for a body pytest would compile differently (an `assert`, which it rewrites) or whose
/// writes reach outside it (`global`, `nonlocal`).
pub(crate) fn free_loads(
    params: &[String],
    body: &[Stmt],
    future_annotations: bool,
) -> Option<Vec<Load>> {
    let mut bound = BoundNames::default();
    for stmt in body {
        bound.visit_stmt(stmt);
    }
    let mut walker = FreeLoads {
        future_annotations,
        ..FreeLoads::default()
    };
    for stmt in body {
        walker.visit_stmt(stmt);
    }
    if walker.refused {
        return None;
    }
    let own = |n: &str| params.iter().any(|p| p == n) || bound.names.iter().any(|b| b == n);
    Some(
        walker
            .loads
            .into_iter()
            .filter(|l| !own(l.name.as_str()))
            .collect(),
    )
}

#[derive(Default)]
pub(crate) struct FreeLoads {
    pub(crate) loads: Vec<Load>,
    pub(crate) refused: bool,
    /// The module has `from __future__ import annotations`: every annotation is a string.
    pub(crate) future_annotations: bool,
}

impl<'a> Visitor<'a> for FreeLoads {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::Assert(_) | Stmt::Global(_) | Stmt::Nonlocal(_) => self.refused = true,
            // A module the evaluator may not find (one next to the test file, a relative one).
            // The builtins module itself hands out `eval`, `exec` and `globals` under any spelling.
            Stmt::Import(i)
                if i.names.iter().any(|a| {
                    let top = a.name.split('.').next().unwrap_or("");
                    !crate::stdlib::is_stdlib(top) || top == "builtins"
                }) =>
            {
                self.refused = true
            }
            Stmt::ImportFrom(i)
                if i.level > 0
                    || !i.module.as_ref().is_some_and(|m| {
                        let top = m.split('.').next().unwrap_or("");
                        crate::stdlib::is_stdlib(top) && top != "builtins"
                    }) =>
            {
                self.refused = true
            }
            // An annotation kept as a string is resolved later in the module `__module__` names,
            // which in a check is the evaluation namespace, not the test module.
            Stmt::AnnAssign(a) if self.future_annotations || is_string(&a.annotation) => {
                self.refused = true
            }
            Stmt::FunctionDef(f) => {
                for d in &f.decorator_list {
                    self.visit_expr(&d.expression);
                }
                for p in f.parameters.iter() {
                    if let Some(e) = p.default() {
                        self.visit_expr(e);
                    }
                    if let Some(e) = p.annotation() {
                        self.refused |= self.future_annotations || is_string(e);
                        self.visit_expr(e);
                    }
                }
                if let Some(r) = &f.returns {
                    self.refused |= self.future_annotations || is_string(r);
                    self.visit_expr(r);
                }
                let params: Vec<String> =
                    f.parameters.iter().map(|p| p.name().to_string()).collect();
                match free_loads(&params, &f.body, self.future_annotations) {
                    Some(inner) => self.loads.extend(inner),
                    None => self.refused = true,
                }
            }
            Stmt::ClassDef(c) => {
                for d in &c.decorator_list {
                    self.visit_expr(&d.expression);
                }
                if let Some(args) = c.arguments.as_deref() {
                    for a in args.args.iter() {
                        self.visit_expr(a);
                    }
                    for k in args.keywords.iter() {
                        self.visit_expr(&k.value);
                    }
                }
                for s in &c.body {
                    self.visit_stmt(s);
                }
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        // Where code says it lives (its file, its caller's frame, its own module) is the check's,
        // not pytest's.
        let introspects = crate::walk::any_expr(expr, crate::walk::Scope::All, |e| match e {
            Expr::Attribute(a) => INTROSPECTION.contains(&a.attr.as_str()),
            Expr::Name(n) => MODULE_SELF.contains(&n.id.as_str()),
            _ => false,
        });
        self.refused |= introspects;
        self.loads.extend(Facts::of(expr).loads);
    }
}

/// The compile flags of the test module's future imports (`from __future__ import annotations`),
/// as pytest's compile of the module takes them from its statements: the text for `compile`.
pub(crate) fn future_flags(source: &str) -> &'static str {
    let annotations = source
        .lines()
        .any(|l| l.starts_with("from __future__ import") && l.contains("annotations"));
    if annotations {
        "__import__(\"__future__\").annotations.compiler_flag"
    } else {
        "0"
    }
}

/// A statement's source as Python reads a file: every line ending (`\r\n`, `\r`) a `\n`.
pub(crate) fn universal_newlines(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// Python source for a string literal: `"…"`, escaping what a double-quoted literal needs.
pub(crate) fn py_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
