//! Why a unittest test cannot be flattened with a plain `unittest.TestCase()` as its instance: what
//! its class runs around it, what the method reads of its instance, a `setUp` that cannot be replayed.

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashSet as HashSet;

use super::is_check_method;
use super::testcase::{AROUND, MESSAGE_ONLY, TESTCASE_ATTRS};
use crate::rules::{Reason, Unittest};
use crate::source::SourceMap;
use crate::walk::{any_expr, find_expr, Scope};

/// Why no test of the class can be flattened: what runs around its tests, or what the file does
/// not show.
pub(super) fn class_reason(mro: &[&ast::StmtClassDef], map: &SourceMap) -> Option<Reason> {
    for k in mro {
        let line = map.line(k.range.start());
        if let Some(d) = k.decorator_list.first() {
            return Some(Unittest::TestCaseDecorated.because(format!(
                "the test case `{}` is decorated (`@{}`, line {line}), which may skip its tests or change how they run",
                k.name,
                map.snippet(d.expression.range())
            )));
        }
        if k.bases().len() > 1 || k.arguments.as_ref().is_some_and(|a| !a.keywords.is_empty()) {
            return Some(Unittest::SeveralBasesOrMetaclass.because(format!(
                "the test case `{}` (line {line}) has several bases or a metaclass, whose methods and setup this extractor does not read",
                k.name
            )));
        }
        for stmt in &k.body {
            let defined: Vec<&str> = match stmt {
                Stmt::FunctionDef(f) => vec![f.name.as_str()],
                Stmt::Assign(a) => a
                    .targets
                    .iter()
                    .filter_map(|t| match t {
                        Expr::Name(n) => Some(n.id.as_str()),
                        _ => None,
                    })
                    .collect(),
                Stmt::AnnAssign(a) => match a.target.as_ref() {
                    Expr::Name(n) => vec![n.id.as_str()],
                    _ => vec![],
                },
                _ => vec![],
            };
            if let Some(name) = defined
                .iter()
                .find(|n| TESTCASE_ATTRS.contains(n) && **n != "setUp" && !MESSAGE_ONLY.contains(n))
            {
                return Some(Unittest::RedefinesTestCaseMember.because(format!(
                    "the test case `{}` redefines unittest's own `{name}` (line {}), which changes how its tests run or check",
                    k.name,
                    map.line(stmt.range().start())
                )));
            }
            match stmt {
                Stmt::FunctionDef(f) if AROUND.contains(&f.name.as_str()) => {
                    return Some(Unittest::RunsAroundTests.because(format!(
                        "the test case `{}` defines `{}` (line {}), which runs around every test and is not replayed",
                        k.name,
                        f.name,
                        map.line(f.range.start())
                    )));
                }
                Stmt::FunctionDef(f)
                    if !f.decorator_list.is_empty() && !f.name.starts_with("test") =>
                {
                    return Some(Unittest::DecoratedHelperMethod.because(format!(
                        "the test case `{}` decorates `{}` (line {}): a pytest fixture or another wrapper may run around its tests",
                        k.name,
                        f.name,
                        map.line(f.range.start())
                    )));
                }
                Stmt::FunctionDef(_) | Stmt::Pass(_) => {}
                Stmt::Expr(e) if e.value.is_string_literal_expr() => {}
                // `__unittest_skip__ = True`, or `test_x.__unittest_expecting_failure__ = True` /
                // `test_x.pytestmark = […]` stored on a method: what unittest or pytest reads.
                Stmt::Assign(a)
                    if a.targets.iter().any(|t| match t {
                        Expr::Name(n) => n.id.starts_with("__") && n.id.ends_with("__"),
                        Expr::Attribute(at) => {
                            (at.attr.as_str().starts_with("__") && at.attr.as_str().ends_with("__"))
                                || at.attr.as_str() == "pytestmark"
                        }
                        _ => false,
                    }) =>
                {
                    return Some(Unittest::SetsDunderAttribute.because(format!(
                        "the test case `{}` sets `{}` (line {}), which unittest or pytest may read to skip or expect a failure",
                        k.name,
                        map.snippet(a.range),
                        map.line(a.range.start())
                    )));
                }
                Stmt::Assign(a)
                    if crate::names::is_immutable_literal(&a.value)
                        && a.targets.iter().all(|t| matches!(t, Expr::Name(_))) => {}
                other => {
                    return Some(Unittest::ClassBodyRunsCode.because(format!(
                        "the body of the test case `{}` runs `{}` (line {}) when pytest imports the file",
                        k.name,
                        map.snippet(other.range()),
                        map.line(other.range().start())
                    )));
                }
            }
        }
    }
    None
}

/// Why a test method cannot be flattened with a plain `unittest.TestCase()` as its instance.
pub(super) fn method_reason(
    f: &ast::StmtFunctionDef,
    defined: &HashSet<&str>,
    set_by_setup: &HashSet<String>,
    set_up: Option<&ast::StmtFunctionDef>,
    map: &SourceMap,
) -> Option<Reason> {
    let line = map.line(f.range.start());
    // A parameter after `self` without a default: called without arguments, the method raises.
    let takes_params = f
        .parameters
        .posonlyargs
        .iter()
        .chain(&f.parameters.args)
        .skip(1)
        .chain(&f.parameters.kwonlyargs)
        .any(|p| p.default.is_none());
    if let Some(d) = f.decorator_list.iter().find(|d| {
        let call = match &d.expression {
            Expr::Call(c) => c.func.as_ref(),
            other => other,
        };
        matches!(call, Expr::Attribute(a) if a.attr.as_str() == "parametrize")
    }) {
        if takes_params {
            return Some(Unittest::ParametrizedMethod.because(format!(
                "pytest does not parametrize a `unittest.TestCase` method (`@{}`, line {line}): it calls it without those arguments, so the test fails with a `TypeError` before any check",
                map.snippet(d.expression.range())
            )));
        }
    }
    if let Some(d) = f.decorator_list.first() {
        return Some(Unittest::DecoratedTestMethod.because(format!(
            "the test is decorated (`@{}`, line {line}), which may skip it or change how it runs",
            map.snippet(d.expression.range())
        )));
    }
    if f.is_async {
        return Some(
            Unittest::AsyncTestMethod
                .because("an `async def` test method runs under an event loop unittest provides"),
        );
    }
    let Some(this) = f.parameters.args.first().map(|p| p.parameter.name.as_str()) else {
        return Some(Unittest::TestMethodSignature.because("the test method takes no instance"));
    };
    if f.parameters.len() != 1 {
        return Some(
            Unittest::TestMethodSignature
                .because("the test method takes parameters besides its instance"),
        );
    }
    if let Some(s) = set_up {
        let same = s.parameters.args.first().map(|p| p.parameter.name.as_str()) == Some(this);
        let bound = bound_names(s);
        if !same || bound.iter().any(|b| mentions_name(f, b)) {
            return Some(Unittest::SetUpSharesNames.because(format!(
                "the test's names and those of `setUp` (line {}) would share one expression's scope",
                map.line(s.range.start())
            )));
        }
    }
    let mut reads = SelfReads {
        this,
        assigned: set_by_setup.clone(),
        problem: None,
    };
    for stmt in &f.body {
        reads.visit_stmt(stmt);
        if reads.problem.is_some() {
            break;
        }
    }
    if let Some((range, what)) = reads.problem {
        return Some(Unittest::InstanceReadNotReplayed.because(format!(
            "the test reads `{}` on line {} ({what}); the plain `unittest.TestCase()` that stands for the test's instance has only unittest's own methods",
            map.snippet(range),
            map.line(range.start())
        )));
    }
    if let Some(custom) = reads_custom_check(f, this, defined) {
        return Some(Unittest::CustomAssertMethod.because(format!(
            "the test case defines its own `{custom}`, which is not unittest's check"
        )));
    }
    None
}

/// Why the class's `setUp` cannot be replayed before each test, and the attributes it sets on the
/// instance. Replayed, it is the body's statements in order with the same plain `TestCase()`; so
/// it must read the instance as a test may (`SelfReads`), bind no name but its instance's
/// attributes, and be a plain method.
pub(super) fn setup_reason(
    s: &ast::StmtFunctionDef,
    defined: &HashSet<&str>,
    map: &SourceMap,
) -> (Option<Reason>, HashSet<String>) {
    let line = map.line(s.range.start());
    let refuse = |why: &str| {
        (
            Some(Unittest::SetUpNotReplayable.because(format!(
                "the test case's `setUp` (line {line}) runs before every test, and {why}"
            ))),
            HashSet::default(),
        )
    };
    if !s.decorator_list.is_empty() || s.is_async || s.parameters.len() != 1 {
        return refuse("it is not a plain method");
    }
    let Some(this) = s.parameters.args.first().map(|p| p.parameter.name.as_str()) else {
        return refuse("it takes no instance");
    };
    if !bound_names(s).is_empty() {
        return refuse("it binds local names, which would share the test's expression");
    }
    let mut reads = SelfReads {
        this,
        assigned: HashSet::default(),
        problem: None,
    };
    for stmt in &s.body {
        reads.visit_stmt(stmt);
    }
    if let Some((range, what)) = reads.problem {
        return refuse(&format!(
            "it reads `{}` on line {} ({what})",
            map.snippet(range),
            map.line(range.start())
        ));
    }
    if let Some(custom) = reads_custom_check(s, this, defined) {
        return refuse(&format!("it calls the test case's own `{custom}`"));
    }
    (None, reads.assigned)
}

/// Names a function binds in its body (not its parameters, not attributes).
fn bound_names(f: &ast::StmtFunctionDef) -> Vec<String> {
    let mut bound = crate::module::BoundNames::default();
    for stmt in &f.body {
        ruff_python_ast::visitor::Visitor::visit_stmt(&mut bound, stmt);
    }
    bound.names
}

/// Whether a function's body names `name` anywhere.
fn mentions_name(f: &ast::StmtFunctionDef, name: &str) -> bool {
    f.body.iter().any(|s| mentions(s, name))
}

/// A check method the test calls that the class (or a base in the file) defines itself.
fn reads_custom_check(
    f: &ast::StmtFunctionDef,
    this: &str,
    defined: &HashSet<&str>,
) -> Option<String> {
    find_expr(&f.body[..], Scope::All, |expr| match expr {
        Expr::Attribute(a)
            if matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == this)
                && defined.contains(a.attr.as_str()) =>
        {
            Some(a.attr.to_string())
        }
        _ => None,
    })
}

/// The test's reads of its instance, in order: each must be a check method, `subTest`, or an
/// attribute the test set before (`self.x = …`).
struct SelfReads<'t> {
    this: &'t str,
    assigned: HashSet<String>,
    problem: Option<(TextRange, &'static str)>,
}

impl<'a> Visitor<'a> for SelfReads<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if self.problem.is_some() {
            return;
        }
        match stmt {
            // A nested function may read the instance whenever it is called: refuse any mention.
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {
                if mentions(stmt, self.this) {
                    self.problem = Some((stmt.range(), "inside a nested function or class"));
                }
            }
            Stmt::Assign(a) => {
                self.visit_expr(&a.value);
                for t in &a.targets {
                    match t {
                        Expr::Attribute(at) if matches!(at.value.as_ref(), Expr::Name(n) if n.id.as_str() == self.this) =>
                        {
                            self.assigned.insert(at.attr.to_string());
                        }
                        other => self.visit_expr(other),
                    }
                }
            }
            _ => visitor::walk_stmt(self, stmt),
        }
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if self.problem.is_some() {
            return;
        }
        match expr {
            Expr::Attribute(a) if matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == self.this) =>
            {
                let attr = a.attr.as_str();
                if !(is_check_method(attr) || attr == "subTest" || self.assigned.contains(attr)) {
                    self.problem = Some((
                        a.range,
                        "an attribute the test does not set itself and that is not one of unittest's checks",
                    ));
                }
            }
            Expr::Name(n) if n.id.as_str() == self.this => {
                self.problem = Some((n.range, "the instance itself, handed on"));
            }
            _ => visitor::walk_expr(self, expr),
        }
    }
}

/// Whether a statement names `this` anywhere.
fn mentions(stmt: &Stmt, this: &str) -> bool {
    any_expr(
        stmt,
        Scope::All,
        |e| matches!(e, Expr::Name(n) if n.id.as_str() == this),
    )
}
