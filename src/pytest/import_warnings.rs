//! Warnings the test file's own code may issue while pytest imports and collects it, before any
//! test runs (`_pytest/python.py`, `Module._importtestmodule`, then `PyCollector.collect`): what
//! runs at import time is the module body, class bodies, decorators and defaults, never a
//! function's body. pytest imports the file under the configuration's filters only (a test's
//! `filterwarnings` marks apply while it runs), so under an `error` filter any of these fails the
//! collection (`extract::session`):
//!
//! - importing a module the evaluator does not import: one outside the standard library every
//!   Python from 3.9 on has (a third-party package, a neighbour, a removed module such as `cgi`,
//!   which warns `DeprecationWarning` on import until it is gone), or one of the standard library's
//!   deprecated shims (`sre_compile`): whether its import warns is not the file's to tell;
//! - `@pytest.yield_fixture`, which warns `PytestDeprecationWarning` where it decorates;
//! - a module-level name pytest collects as a test class (`Test…`) bound by anything but a `class`
//!   statement (`TestCase = namedtuple(...)`, an import): pytest warns `PytestCollectionWarning`
//!   for a class with a constructor, and the extractor cannot tell what the value is.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::module::ModuleScope;
use crate::rules::{Config, Reason};
use crate::source::SourceMap;

/// One warning the file's import may issue: the categories it may have (`None`: any), a message
/// to match filters against, and what to tell the reader.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportWarning {
    pub categories: Option<&'static [&'static str]>,
    pub message: String,
    pub why: Reason,
}

/// Standard-library modules of every Python from 3.9 on that warn `DeprecationWarning` when
/// imported (3.11 on).
const DEPRECATED_SHIMS: [&str; 3] = ["sre_compile", "sre_parse", "sre_constants"];

/// Names unittest exports that pytest's unittest plugin collects (subclasses of `TestCase`): no
/// warning.
const UNITTEST_CASES: [&str; 3] = ["TestCase", "IsolatedAsyncioTestCase", "FunctionTestCase"];

/// What importing the file may warn, in source order.
pub fn import_warnings(
    body: &[Stmt],
    scope: &ModuleScope,
    map: &SourceMap,
    solution: &str,
) -> Vec<ImportWarning> {
    let mut found = Vec::new();
    let mut walk = Walk {
        scope,
        map,
        solution_top: solution.split('.').next().unwrap_or(solution).to_string(),
        found: &mut found,
    };
    walk.body(body, true);
    found
}

struct Walk<'w, 'a> {
    scope: &'w ModuleScope<'a>,
    map: &'w SourceMap<'a>,
    solution_top: String,
    found: &'w mut Vec<ImportWarning>,
}

impl Walk<'_, '_> {
    /// The statements of `body` that run when the file is imported; `module`: the module's own
    /// body (where a name pytest collects is bound), not a class's.
    fn body(&mut self, body: &[Stmt], module: bool) {
        for stmt in body {
            self.stmt(stmt, module);
        }
    }

    fn stmt(&mut self, stmt: &Stmt, module: bool) {
        let line = self.map.line(stmt.start());
        match stmt {
            Stmt::Import(i) => {
                for alias in &i.names {
                    self.import(alias.name.as_str(), line);
                    let bound = match &alias.asname {
                        Some(a) => a.as_str(),
                        None => alias.name.as_str().split('.').next().unwrap_or(""),
                    };
                    if module {
                        self.test_name(bound, line, &format!("import {}", alias.name));
                    }
                }
            }
            Stmt::ImportFrom(i) => {
                let from = i.module.as_ref().map(|m| m.as_str()).unwrap_or("");
                if i.level > 0 {
                    self.unknown_import(&format!("{}{from}", ".".repeat(i.level as usize)), line);
                } else {
                    self.import(from, line);
                }
                for alias in &i.names {
                    let bound = alias.asname.as_ref().unwrap_or(&alias.name).as_str();
                    let unittest_case = i.level == 0
                        && from == "unittest"
                        && UNITTEST_CASES.contains(&alias.name.as_str());
                    if module && !unittest_case {
                        self.test_name(bound, line, &format!("from {from} import {}", alias.name));
                    }
                }
            }
            Stmt::FunctionDef(f) => {
                for d in &f.decorator_list {
                    self.decorator(&d.expression, line);
                }
            }
            Stmt::ClassDef(c) => {
                for d in &c.decorator_list {
                    self.decorator(&d.expression, line);
                }
                if module && c.name.as_str().starts_with("Test") {
                    let unknown = c
                        .arguments
                        .as_deref()
                        .into_iter()
                        .flat_map(|a| a.args.iter())
                        .find(|b| !self.known_base(b));
                    if let Some(base) = unknown {
                        let name = c.name.as_str();
                        self.found.push(ImportWarning {
                            categories: Some(&["PytestCollectionWarning"]),
                            message: format!("cannot collect test class '{name}' because it has a __init__ constructor"),
                            why: Config::TestNamedBindingMayWarn.because(format!(
                                "the class `{name}` on line {line} derives from `{}`, which may give it a constructor: pytest then warns `PytestCollectionWarning` while it collects the file",
                                self.map.snippet(base.range())
                            )),
                        });
                    }
                }
                self.body(&c.body, false);
            }
            Stmt::Assign(a) if module => {
                for target in &a.targets {
                    self.assigned(target, &a.value, line);
                }
            }
            Stmt::AnnAssign(a) if module => {
                if let Some(value) = &a.value {
                    self.assigned(&a.target, value, line);
                }
            }
            Stmt::If(s) => {
                self.body(&s.body, module);
                for clause in &s.elif_else_clauses {
                    self.body(&clause.body, module);
                }
            }
            Stmt::Try(s) => {
                self.body(&s.body, module);
                for handler in &s.handlers {
                    let ast::ExceptHandler::ExceptHandler(h) = handler;
                    self.body(&h.body, module);
                }
                self.body(&s.orelse, module);
                self.body(&s.finalbody, module);
            }
            Stmt::With(s) => self.body(&s.body, module),
            Stmt::For(s) => {
                self.body(&s.body, module);
                self.body(&s.orelse, module);
            }
            Stmt::While(s) => {
                self.body(&s.body, module);
                self.body(&s.orelse, module);
            }
            _ => {}
        }
    }

    /// A base whose constructor the file shows: a builtin class, a class of the file (whose own
    /// constructor `collect::constructor_test_classes` reads), or unittest's `TestCase` (pytest's
    /// unittest plugin collects its subclasses without looking).
    fn known_base(&self, base: &Expr) -> bool {
        use crate::module::Global;
        let Some(dotted) = crate::module::dotted_name(base) else {
            return false;
        };
        let first = dotted.split('.').next().unwrap_or("");
        match self.scope.globals.get(first) {
            None => crate::stdlib::is_builtin_base(&dotted),
            Some(Global::Helper { kind: "class", .. }) => first == dotted,
            Some(Global::Import { module, .. }) => {
                let full = format!("{module}{}", &dotted[first.len()..]);
                matches!(
                    full.as_str(),
                    "unittest.TestCase"
                        | "unittest.IsolatedAsyncioTestCase"
                        | "unittest.case.TestCase"
                )
            }
            _ => false,
        }
    }

    fn import(&mut self, module: &str, line: u32) {
        let top = module.split('.').next().unwrap_or(module);
        let quiet = top == self.solution_top
            || top == "pytest"
            || top == "_pytest"
            || top == "__future__"
            || (ruff_python_stdlib::sys::is_known_standard_library(9, top)
                && ruff_python_stdlib::sys::is_known_standard_library(14, top)
                && !DEPRECATED_SHIMS.contains(&top));
        if !quiet {
            self.unknown_import(module, line);
        }
    }

    fn unknown_import(&mut self, module: &str, line: u32) {
        self.found.push(ImportWarning {
            categories: None,
            message: String::new(),
            why: Config::ImportMayWarn.because(format!(
                "the file imports `{module}` on line {line}, which the evaluator does not import: whether importing it warns is not the file's to tell"
            )),
        });
    }

    fn decorator(&mut self, expr: &Expr, line: u32) {
        if self.scope.pytest_path(expr).as_deref() == Some("pytest.yield_fixture") {
            self.found.push(ImportWarning {
                categories: Some(&["PytestDeprecationWarning"]),
                message: "@pytest.yield_fixture is deprecated.\nUse @pytest.fixture instead; they are the same.".into(),
                why: Config::YieldFixtureDeprecated.because(format!(
                    "`@pytest.yield_fixture` on line {line} warns `PytestDeprecationWarning` while pytest imports the file"
                )),
            });
        }
    }

    /// `name = value` at module level.
    fn assigned(&mut self, target: &Expr, value: &Expr, line: u32) {
        let names: Vec<&str> = match target {
            Expr::Name(n) => vec![n.id.as_str()],
            Expr::Tuple(t) => t
                .elts
                .iter()
                .filter_map(|e| match e {
                    Expr::Name(n) => Some(n.id.as_str()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        // A builtin container or scalar made by its constructor (`TestData = dict(...)`).
        let built = matches!(value, Expr::Call(c) if matches!(c.func.as_ref(), Expr::Name(f)
            if matches!(f.id.as_str(), "dict" | "list" | "set" | "frozenset" | "tuple" | "str" | "int" | "float" | "bytes")
                && !self.scope.globals.contains_key(f.id.as_str())));
        if never_a_class(value) || built {
            return;
        }
        for name in names {
            self.test_name(name, line, &format!("`{name} = …`"));
        }
    }

    /// A module-level `name` bound to what may be a class: pytest collects a `Test…` class, and
    /// warns for one with a constructor.
    fn test_name(&mut self, name: &str, line: u32, how: &str) {
        if !name.starts_with("Test") {
            return;
        }
        self.found.push(ImportWarning {
            categories: Some(&["PytestCollectionWarning"]),
            message: format!("cannot collect test class '{name}' because it has a __init__ constructor"),
            why: Config::TestNamedBindingMayWarn.because(format!(
                "{how} on line {line} binds `{name}`, which may be a class: pytest collects a `Test…` class, and one with a constructor makes it warn `PytestCollectionWarning`"
            )),
        });
    }
}

/// Whether an expression's value is certainly not a class: a literal, a display, a
/// comprehension, a lambda, an f-string.
fn never_a_class(value: &Expr) -> bool {
    matches!(
        value,
        Expr::NumberLiteral(_)
            | Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_)
            | Expr::EllipsisLiteral(_)
            | Expr::FString(_)
            | Expr::List(_)
            | Expr::Tuple(_)
            | Expr::Set(_)
            | Expr::Dict(_)
            | Expr::ListComp(_)
            | Expr::SetComp(_)
            | Expr::DictComp(_)
            | Expr::Generator(_)
            | Expr::Lambda(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(src: &str) -> Vec<String> {
        let parsed = ruff_python_parser::parse_module(src).unwrap();
        let map = SourceMap::new(src, parsed.tokens());
        let scope = ModuleScope::analyse(
            parsed.suite(),
            &map,
            &["solution".to_string()],
            &[],
            false,
            None,
        );
        import_warnings(parsed.suite(), &scope, &map, "solution")
            .into_iter()
            .map(|w| w.why.text)
            .collect()
    }

    #[test]
    fn what_runs_at_import_may_warn() {
        assert!(found("from __future__ import annotations\nimport os.path\nimport pytest\nfrom solution import f\nfrom unittest import TestCase\n").is_empty());
        let w = found("import cgi\n");
        assert!(w[0].contains("`cgi` on line 1"), "{w:?}");
        assert!(found("import sre_parse\n")[0].contains("sre_parse"));
        assert!(
            found("try:\n    import numpy\nexcept ImportError:\n    pass\n")[0].contains("numpy")
        );
        assert!(found("from . import helpers\n")[0].contains("`.`"));
        // A function's body runs when the test does, under its marks.
        assert!(found("def test_x():\n    import cgi\n").is_empty());
        let w = found("import pytest\n@pytest.yield_fixture\ndef pair():\n    yield 1\n");
        assert!(w[0].contains("yield_fixture` on line 2"), "{w:?}");
        let w = found("from collections import namedtuple\nTestCase = namedtuple('T', 'a')\n");
        assert!(w[0].contains("binds `TestCase`"), "{w:?}");
        assert!(found("TestCases = [1, 2]\n").is_empty());
        assert!(found("TestData = dict(a=1)\n").is_empty());
        assert!(!found("def dict(**k):\n    return k\nTestData = dict(a=1)\n").is_empty());
        assert!(found("from unittest import TestSuite\n")[0].contains("TestSuite"));
        let w = found("from solution import Stack\nclass TestableStack(Stack):\n    pass\n");
        assert!(w[0].contains("derives from `Stack`"), "{w:?}");
        assert!(found("import unittest\nclass TestX(unittest.TestCase):\n    pass\nclass TestY(object):\n    pass\nclass TestZ(TestY):\n    pass\n").is_empty());
    }
}
