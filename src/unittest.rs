//! `unittest.TestCase` classes in a pytest file, as pytest collects them: never silent about their
//! checks.
//!
//! pytest's unittest plugin (`_pytest/unittest.py`, `pytest_pycollect_makeitem`) collects every
//! class of the module that subclasses `unittest.TestCase`, whatever its name, and runs each of its
//! methods whose name starts with `test` (unittest's `TestLoader.testMethodPrefix`) as the test
//! `Class::method`. The checks such a test makes are calls of unittest's assert methods
//! (`self.assertEqual(…)`, `with self.assertRaises(E):`) and plain `assert` statements.
//!
//! This extractor does not flatten them yet: each is an entry of its test, dropped with a reason
//! that says so, so that a file of unittest tests is never reported as "nothing to check" (the
//! write-up's quiet bug). Plain asserts of a class that `collect` already collects (a `Test*` class)
//! are decided there.

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashSet as HashSet;

use crate::model::{Assertion, Status};
use crate::source::SourceMap;

/// The classes of the module pytest collects as unittest test cases: those deriving from
/// `unittest.TestCase` (or `IsolatedAsyncioTestCase`), directly or through a class of the file.
pub fn testcase_classes(body: &[Stmt]) -> Vec<&ast::StmtClassDef> {
    let mut modules: HashSet<&str> = HashSet::default();
    let mut bases: HashSet<&str> = HashSet::default();
    for stmt in body {
        match stmt {
            Stmt::Import(i) => {
                for a in &i.names {
                    if a.name.as_str() == "unittest" {
                        modules.insert(a.asname.as_ref().unwrap_or(&a.name).as_str());
                    }
                }
            }
            Stmt::ImportFrom(i) if i.level == 0 => {
                if i.module
                    .as_ref()
                    .is_some_and(|m| m.id.as_str() == "unittest")
                {
                    for a in &i.names {
                        if is_testcase_name(a.name.as_str()) {
                            bases.insert(a.asname.as_ref().unwrap_or(&a.name).as_str());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut out: Vec<&ast::StmtClassDef> = Vec::new();
    for stmt in body {
        let Stmt::ClassDef(c) = stmt else { continue };
        let derives = c.bases().iter().any(|b| match b {
            Expr::Name(n) => bases.contains(n.id.as_str()),
            Expr::Attribute(a) => {
                is_testcase_name(a.attr.as_str())
                    && matches!(a.value.as_ref(), Expr::Name(m) if modules.contains(m.id.as_str()))
            }
            _ => false,
        });
        if derives {
            bases.insert(c.name.as_str());
            out.push(c);
        }
    }
    out
}

fn is_testcase_name(n: &str) -> bool {
    matches!(n, "TestCase" | "IsolatedAsyncioTestCase")
}

/// unittest's methods that check (and fail the test when the check fails): every `assert*` and
/// `fail*` method of `unittest.TestCase`, deprecated aliases included.
fn is_check_method(name: &str) -> bool {
    name.starts_with("assert") || name.starts_with("fail")
}

/// One entry per check the `test*` methods of the file's unittest classes make: unittest's assert
/// methods always, plain asserts only where `collected` (the classes `collect` collects) does not
/// already decide them. `collected`: the class names whose tests `collect` listed.
pub fn entries(body: &[Stmt], map: &SourceMap, collected: &HashSet<String>) -> Vec<Assertion> {
    let mut out = Vec::new();
    for c in testcase_classes(body) {
        let plain_too = !collected.contains(c.name.as_str());
        // unittest takes the last definition of a name (the class's attribute).
        let mut seen: HashSet<&str> = HashSet::default();
        for stmt in c.body.iter().rev() {
            let Stmt::FunctionDef(f) = stmt else { continue };
            if !f.name.starts_with("test") || !seen.insert(f.name.as_str()) {
                continue;
            }
            let test = format!("{}::{}", c.name, f.name);
            let self_name = f
                .parameters
                .iter()
                .next()
                .map(|p| p.name().to_string())
                .unwrap_or_default();
            let mut finder = Checks {
                self_name: &self_name,
                plain_too,
                out: Vec::new(),
            };
            visitor::walk_body(&mut finder, &f.body);
            for (range, what) in finder.out {
                out.push(dropped(map, &test, range, &c.name, what));
            }
        }
    }
    out.sort_by_key(|a| a.span.start);
    out
}

/// What kind of check a statement is.
enum What {
    Method(String),
    Plain,
}

struct Checks<'n> {
    self_name: &'n str,
    plain_too: bool,
    out: Vec<(TextRange, What)>,
}

impl Checks<'_> {
    /// `self.assertX` (the callee of a check), as the method's name.
    fn check_method(&self, func: &Expr) -> Option<String> {
        match func {
            Expr::Attribute(a)
                if is_check_method(a.attr.as_str())
                    && matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == self.self_name) =>
            {
                Some(a.attr.to_string())
            }
            _ => None,
        }
    }
}

impl<'a> Visitor<'a> for Checks<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return,
            Stmt::Assert(a) if self.plain_too => self.out.push((a.range, What::Plain)),
            Stmt::Expr(e) => {
                if let Expr::Call(call) = e.value.as_ref() {
                    if let Some(m) = self.check_method(&call.func) {
                        self.out.push((e.range, What::Method(m)));
                    }
                }
            }
            Stmt::With(w) => {
                for item in &w.items {
                    if let Expr::Call(call) = &item.context_expr {
                        if let Some(m) = self.check_method(&call.func) {
                            self.out.push((item.context_expr.range(), What::Method(m)));
                        }
                    }
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }
}

fn dropped(map: &SourceMap, test: &str, range: TextRange, class: &str, what: What) -> Assertion {
    let (line, column) = map.line_column(range.start());
    let reason = match what {
        What::Method(m) => format!(
            "`self.{m}(…)` is a check unittest makes in the test case `{class}`; this extractor does not flatten unittest's assert methods yet, so it cannot be kept"
        ),
        What::Plain => format!(
            "the assert is in a method of the unittest test case `{class}`, which pytest runs through its unittest plugin; this extractor does not flatten unittest test cases yet, so it cannot be kept"
        ),
    };
    Assertion {
        test: test.to_string(),
        line,
        column,
        source: map.text(range).to_string(),
        status: Status::Dropped,
        expr: None,
        reason: Some(reason),
        unresolved: Some(Vec::new()),
        shapes: Vec::new(),
        span: map.span(range),
        origins: Vec::new(),
    }
}
