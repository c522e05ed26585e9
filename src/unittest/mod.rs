//! `unittest.TestCase` classes in a pytest file, as pytest collects them: never silent about their
//! checks.
//!
//! pytest's unittest plugin (`_pytest/unittest.py`, `pytest_pycollect_makeitem`) collects every
//! class of the module that subclasses `unittest.TestCase`, whatever its name, and runs each of its
//! methods whose name starts with `test` (unittest's `TestLoader.testMethodPrefix`) as the test
//! `Class::method`. The checks such a test makes are calls of unittest's assert methods
//! (`self.assertEqual(…)`, `with self.assertRaises(E):`) and plain `assert` statements.
//!
//! Each `test*` method is a [`Case`] (`cases`), flattened like any test: its instance is written
//! as a plain `unittest.TestCase()` (setup.rs), which is exact where the method reads the instance
//! only for unittest's own assert methods (not redefined by the class) and for attributes it sets
//! itself, and the class runs nothing around the test (no `setUp`, `tearDown`, decorators, class
//! body code). A top-level `self.assertEqual(a, b)` is kept as `<the call> is None`: unittest's
//! own comparison, true when it returns, raising (a fail) when the check fails. Otherwise every
//! check of the method is dropped with the reason.

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashSet as HashSet;

use crate::collect::{kept, Case};
use crate::rules::{Reason, Unittest};
use crate::source::SourceMap;

/// The names under which the module imports unittest and its `TestCase` classes.
#[derive(Default)]
struct UnittestNames<'a> {
    modules: HashSet<&'a str>,
    bases: HashSet<&'a str>,
}

impl<'a> UnittestNames<'a> {
    fn of(body: &'a [Stmt]) -> Self {
        let mut names = UnittestNames::default();
        for stmt in body {
            match stmt {
                Stmt::Import(i) => {
                    for a in &i.names {
                        if a.name.as_str() == "unittest" {
                            names
                                .modules
                                .insert(a.asname.as_ref().unwrap_or(&a.name).as_str());
                        }
                    }
                }
                Stmt::ImportFrom(i)
                    if i.level == 0
                        && i.module
                            .as_ref()
                            .is_some_and(|m| m.id.as_str() == "unittest") =>
                {
                    for a in &i.names {
                        if is_testcase_name(a.name.as_str()) {
                            names
                                .bases
                                .insert(a.asname.as_ref().unwrap_or(&a.name).as_str());
                        }
                    }
                }
                _ => {}
            }
        }
        names
    }

    /// `unittest.TestCase` (or `IsolatedAsyncioTestCase`) itself, as the file names it.
    fn is_testcase(&self, b: &Expr) -> bool {
        match b {
            Expr::Name(n) => self.bases.contains(n.id.as_str()),
            Expr::Attribute(a) => {
                is_testcase_name(a.attr.as_str())
                    && matches!(a.value.as_ref(), Expr::Name(m) if self.modules.contains(m.id.as_str()))
            }
            _ => false,
        }
    }
}

/// Whether a class base is unittest's own `TestCase` as the module imported it.
pub fn is_unittest_base(body: &[Stmt], b: &Expr) -> bool {
    UnittestNames::of(body).is_testcase(b)
}

/// The classes of the module pytest collects as unittest test cases: those deriving from
/// `unittest.TestCase` (or `IsolatedAsyncioTestCase`), directly or through a class of the file,
/// that the module still names at the end (a later binding of the name, a `del`, replaces it) and
/// whose `__test__` is not false.
pub fn testcase_classes(body: &[Stmt]) -> Vec<&ast::StmtClassDef> {
    let names = UnittestNames::of(body);
    let mut derived: HashSet<&str> = HashSet::default();
    let mut out: Vec<&ast::StmtClassDef> = Vec::new();
    for (i, stmt) in body.iter().enumerate() {
        let Stmt::ClassDef(c) = stmt else { continue };
        let derives = c.bases().iter().any(|b| {
            names.is_testcase(b) || matches!(b, Expr::Name(n) if derived.contains(n.id.as_str()))
        });
        if !derives {
            continue;
        }
        derived.insert(c.name.as_str());
        if rebound_later(&body[i + 1..], c.name.as_str()) {
            continue;
        }
        out.push(c);
    }
    let by_name = |n: &str| out.iter().find(|c| c.name.as_str() == n).copied();
    let collected: Vec<&ast::StmtClassDef> = out
        .iter()
        .copied()
        .filter(|c| !test_false(c, &by_name))
        .collect();
    collected
}

/// Whether a statement after a class rebinds or deletes its name at module level.
fn rebound_later(later: &[Stmt], name: &str) -> bool {
    later.iter().any(|s| {
        let mut bound = crate::module::BoundNames::default();
        bound.visit_stmt(s);
        let deleted = matches!(s, Stmt::Delete(d)
            if d.targets.iter().any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name)));
        deleted || bound.names.iter().any(|b| b == name)
    })
}

/// Whether the class (or its nearest base in the file that sets it) sets `__test__` to something
/// other than `True`: pytest then does not collect it.
fn test_false<'a>(
    c: &'a ast::StmtClassDef,
    by_name: &dyn Fn(&str) -> Option<&'a ast::StmtClassDef>,
) -> bool {
    let mut k = Some(c);
    let mut depth = 0;
    while let Some(class) = k {
        for s in &class.body {
            if let Stmt::Assign(a) = s {
                if a.targets
                    .iter()
                    .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == "__test__"))
                {
                    return !matches!(a.value.as_ref(), Expr::BooleanLiteral(b) if b.value);
                }
            }
        }
        depth += 1;
        k = class.bases().iter().find_map(|b| match b {
            Expr::Name(n) if depth < 32 => by_name(n.id.as_str()),
            _ => None,
        });
    }
    false
}

fn is_testcase_name(n: &str) -> bool {
    matches!(n, "TestCase" | "IsolatedAsyncioTestCase")
}

/// unittest's methods that check (and fail the test when the check fails): every `assert*` and
/// `fail*` method of `unittest.TestCase`, deprecated aliases included.
pub fn is_check_method(name: &str) -> bool {
    name.starts_with("assert") || name.starts_with("fail")
}

/// Methods of a test case that run around every test (or replace how it runs): a class that
/// defines one is not replayed yet.
const AROUND: &[&str] = &[
    "tearDown",
    "setUpClass",
    "tearDownClass",
    "asyncSetUp",
    "asyncTearDown",
    "setup_method",
    "teardown_method",
    "setup_class",
    "teardown_class",
    "run",
    "debug",
    "__init__",
    "__call__",
    "__init_subclass__",
    "__getattr__",
    "__getattribute__",
    "__setattr__",
];

/// The attributes `unittest.TestCase` defines itself (CPython 3.11, with those 3.12–3.14 added): a
/// class that redefines one changes how its tests run or check (`_callTestMethod`, `assertEqual`),
/// except the few that only shape a failure's message (`MESSAGE_ONLY`).
const TESTCASE_ATTRS: &[&str] = &[
    "_addDuration",
    "_addExpectedFailure",
    "_addUnexpectedSuccess",
    "_baseAssertEqual",
    "_callAsyncSetUp",
    "_callCleanup",
    "_callSetUp",
    "_callTearDown",
    "_callTestMethod",
    "_deprecate",
    "_diffThreshold",
    "_formatMessage",
    "_getAssertEqualityFunc",
    "_truncateMessage",
    "addClassCleanup",
    "addCleanup",
    "addTypeEqualityFunc",
    "assertAlmostEqual",
    "assertAlmostEquals",
    "assertCountEqual",
    "assertDictContainsSubset",
    "assertDictEqual",
    "assertEndsWith",
    "assertEqual",
    "assertEquals",
    "assertFalse",
    "assertGreater",
    "assertGreaterEqual",
    "assertHasAttr",
    "assertIn",
    "assertIs",
    "assertIsInstance",
    "assertIsNone",
    "assertIsNot",
    "assertIsNotNone",
    "assertIsSubclass",
    "assertLess",
    "assertLessEqual",
    "assertListEqual",
    "assertLogs",
    "assertMultiLineEqual",
    "assertNoLogs",
    "assertNotAlmostEqual",
    "assertNotAlmostEquals",
    "assertNotEndsWith",
    "assertNotEqual",
    "assertNotEquals",
    "assertNotHasAttr",
    "assertNotIn",
    "assertNotIsInstance",
    "assertNotIsSubclass",
    "assertNotRegex",
    "assertNotRegexpMatches",
    "assertNotStartsWith",
    "assertRaises",
    "assertRaisesRegex",
    "assertRaisesRegexp",
    "assertRegex",
    "assertRegexpMatches",
    "assertSequenceEqual",
    "assertSetEqual",
    "assertStartsWith",
    "assertTrue",
    "assertTupleEqual",
    "assertWarns",
    "assertWarnsRegex",
    "assert_",
    "countTestCases",
    "debug",
    "defaultTestResult",
    "doClassCleanups",
    "doCleanups",
    "enterClassContext",
    "enterContext",
    "fail",
    "failIf",
    "failIfAlmostEqual",
    "failIfEqual",
    "failUnless",
    "failUnlessAlmostEqual",
    "failUnlessEqual",
    "failUnlessRaises",
    "failureException",
    "id",
    "longMessage",
    "maxDiff",
    "run",
    "setUp",
    "setUpClass",
    "shortDescription",
    "skipTest",
    "subTest",
    "tearDown",
    "tearDownClass",
];

/// Attributes of `TestCase` that change only the message of a failing check.
const MESSAGE_ONLY: &[&str] = &["maxDiff", "longMessage", "_diffThreshold"];

/// The test cases of the module's unittest classes: one per `test*` method a class has (its own
/// and those its bases in the file define), `Class::method`, each with the reason it cannot be
/// flattened, if any.
pub fn cases<'a>(body: &'a [Stmt], map: &SourceMap) -> Vec<Case<'a>> {
    let classes = testcase_classes(body);
    let all_classes: Vec<&ast::StmtClassDef> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::ClassDef(c) => Some(c),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for c in &classes {
        let mro = mro(c, &all_classes);
        let class_reason = class_reason(&mro, map);
        let mut methods: Vec<&ast::StmtFunctionDef> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::default();
        let mut defined: HashSet<&str> = HashSet::default();
        for k in &mro {
            // unittest takes the class attribute: the last definition in a body, the nearest class.
            for stmt in k.body.iter().rev() {
                match stmt {
                    Stmt::FunctionDef(f) => {
                        defined.insert(f.name.as_str());
                        if seen.insert(f.name.as_str()) && f.name.starts_with("test") {
                            methods.push(f);
                        }
                    }
                    Stmt::Assign(a) => {
                        for t in &a.targets {
                            if let Expr::Name(n) = t {
                                seen.insert(n.id.as_str());
                                defined.insert(n.id.as_str());
                            }
                        }
                    }
                    Stmt::AnnAssign(a) => {
                        if let Expr::Name(n) = a.target.as_ref() {
                            seen.insert(n.id.as_str());
                            defined.insert(n.id.as_str());
                        }
                    }
                    _ => {}
                }
            }
        }
        methods.sort_by(|a, b| a.name.as_str().cmp(b.name.as_str()));
        // unittest's loader: a class without `test*` methods runs its `runTest`, if it has one.
        if methods.is_empty() {
            if let Some(run) = mro.iter().find_map(|k| {
                k.body.iter().rev().find_map(|s| match s {
                    Stmt::FunctionDef(f) if f.name.as_str() == "runTest" => Some(f),
                    _ => None,
                })
            }) {
                methods.push(run);
            }
        }
        // The nearest `setUp`: replayed before each test when it only sets the instance's
        // attributes and calls code (see `setup_reason`).
        let set_up = mro.iter().find_map(|k| {
            k.body.iter().rev().find_map(|s| match s {
                Stmt::FunctionDef(f) if f.name.as_str() == "setUp" => Some(f),
                _ => None,
            })
        });
        let (setup_reason, set_by_setup) = match set_up {
            Some(s) => setup_reason(s, &defined, map),
            None => (None, HashSet::default()),
        };
        for f in methods {
            let not_run = class_reason
                .clone()
                .or_else(|| setup_reason.clone())
                .or_else(|| method_reason(f, &defined, &set_by_setup, set_up, map));
            out.push(Case {
                id: format!("{}::{}", c.name, f.name),
                func: f,
                is_method: true,
                unittest: true,
                unittest_setup: set_up,
                params: Vec::new(),
                param_ranges: Vec::new(),
                not_run: not_run.map(kept),
                parametrized: false,
                setup: Vec::new(),
                class_fixtures: Vec::new(),
                fixture_values: Vec::new(),
            });
        }
    }
    out
}

/// The class and its bases that the file defines, nearest first (single inheritance chains and
/// simple trees, depth first, as Python's MRO orders them when no base is shared).
fn mro<'a>(
    c: &'a ast::StmtClassDef,
    classes: &[&'a ast::StmtClassDef],
) -> Vec<&'a ast::StmtClassDef> {
    let mut out = vec![c];
    let mut i = 0;
    while i < out.len() && out.len() < 32 {
        let k = out[i];
        for b in k.bases() {
            if let Expr::Name(n) = b {
                if let Some(base) = classes.iter().find(|x| x.name.as_str() == n.id.as_str()) {
                    if !out.iter().any(|o| o.range == base.range) {
                        out.push(base);
                    }
                }
            }
        }
        i += 1;
    }
    out
}

/// Why no test of the class can be flattened: what runs around its tests, or what the file does
/// not show.
fn class_reason(mro: &[&ast::StmtClassDef], map: &SourceMap) -> Option<Reason> {
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
                Stmt::Assign(a)
                    if a.targets.iter().any(|t| {
                        matches!(t, Expr::Name(n) if n.id.starts_with("__") && n.id.ends_with("__"))
                    }) =>
                {
                    return Some(Unittest::SetsDunderAttribute.because(format!(
                        "the test case `{}` sets `{}` (line {}), which unittest or pytest may read to skip or expect a failure",
                        k.name,
                        map.snippet(a.range),
                        map.line(a.range.start())
                    )));
                }
                Stmt::Assign(a) if crate::names::is_immutable_literal(&a.value) => {}
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
fn method_reason(
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
fn setup_reason(
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
        bound.visit_stmt(stmt);
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
    struct Find<'t, 'd, 'n> {
        this: &'t str,
        defined: &'d HashSet<&'n str>,
        found: Option<String>,
    }
    impl<'a> Visitor<'a> for Find<'_, '_, '_> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if let Expr::Attribute(a) = expr {
                if matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == self.this)
                    && self.defined.contains(a.attr.as_str())
                {
                    self.found.get_or_insert_with(|| a.attr.to_string());
                }
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut find = Find {
        this,
        defined,
        found: None,
    };
    visitor::walk_body(&mut find, &f.body);
    find.found
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
    struct Mentions<'t>(&'t str, bool);
    impl<'a> Visitor<'a> for Mentions<'_> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if matches!(expr, Expr::Name(n) if n.id.as_str() == self.0) {
                self.1 = true;
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut m = Mentions(this, false);
    m.visit_stmt(stmt);
    m.1
}

/// `self.assertX(…)` (the callee of a check) for the instance named `this`: the method's name.
pub fn check_call<'e>(expr: &'e Expr, this: &str) -> Option<&'e ast::ExprCall> {
    let Expr::Call(call) = expr else { return None };
    match call.func.as_ref() {
        Expr::Attribute(a)
            if is_check_method(a.attr.as_str())
                && matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == this) =>
        {
            Some(call)
        }
        _ => None,
    }
}

/// unittest's methods that return a context manager when called without their callable (and make
/// no check then), with how many positional arguments the callable form takes at least.
const CONTEXT_FORMS: &[(&str, usize)] = &[
    ("assertRaises", 2),
    ("assertRaisesRegex", 3),
    ("assertWarns", 2),
    ("assertWarnsRegex", 3),
    ("assertLogs", usize::MAX),
    ("assertNoLogs", usize::MAX),
];

/// `self.assertX(…)` as a statement that makes a check: not a context-manager form called
/// without its callable (`self.assertRaises(E)` alone makes no check).
pub fn statement_check<'e>(expr: &'e Expr, this: &str) -> Option<&'e ast::ExprCall> {
    let call = check_call(expr, this)?;
    let name = method_name(call);
    let args = &call.arguments.args;
    match CONTEXT_FORMS.iter().find(|(m, _)| *m == name) {
        Some((_, n)) if args.iter().any(Expr::is_starred_expr) || args.len() < *n => None,
        _ => Some(call),
    }
}

/// The checks nested in a statement (unittest's check calls, as statements or `with` items), for a
/// test whose instance is `this`: each range, and the method's name.
pub fn nested_checks(stmt: &Stmt, this: &str) -> Vec<(TextRange, String)> {
    struct Checks<'t> {
        this: &'t str,
        out: Vec<(TextRange, String)>,
    }
    impl<'a> Visitor<'a> for Checks<'_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => return,
                Stmt::Expr(e) => {
                    if let Some(call) = statement_check(&e.value, self.this) {
                        self.out.push((e.range, method_name(call)));
                    }
                }
                Stmt::With(w) => {
                    for item in &w.items {
                        if let Some(call) = check_call(&item.context_expr, self.this) {
                            self.out
                                .push((item.context_expr.range(), method_name(call)));
                        }
                    }
                }
                _ => {}
            }
            visitor::walk_stmt(self, stmt);
        }
        fn visit_expr(&mut self, _: &'a Expr) {}
    }
    let mut checks = Checks {
        this,
        out: Vec::new(),
    };
    checks.visit_stmt(stmt);
    checks.out
}

fn method_name(call: &ast::ExprCall) -> String {
    match call.func.as_ref() {
        Expr::Attribute(a) => a.attr.to_string(),
        _ => String::new(),
    }
}

/// Classes that may be unittest test cases the file cannot tell: not named `Test*` (pytest's own
/// class collection), not derived from unittest's `TestCase` through the file, with a base the file
/// does not define (an import, an expression). If that base is a `TestCase`, pytest runs their
/// `test*` methods; their checks are counted as not seen, with a finding.
pub fn unknown_classes(body: &[Stmt], map: &SourceMap) -> Vec<crate::model::Finding> {
    let known: HashSet<TextRange> = testcase_classes(body).iter().map(|c| c.range).collect();
    let file_classes: HashSet<&str> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::ClassDef(c) => Some(c.name.as_str()),
            _ => None,
        })
        .collect();
    let names = UnittestNames::of(body);
    let mut unknown: HashSet<&str> = HashSet::default();
    let mut out = Vec::new();
    for stmt in body {
        let Stmt::ClassDef(c) = stmt else { continue };
        if known.contains(&c.range) {
            continue;
        }
        let Some(base) = c.bases().iter().find(|b| match b {
            Expr::Name(n) => {
                unknown.contains(n.id.as_str())
                    || (n.id.as_str() != "object" && !file_classes.contains(n.id.as_str()))
            }
            other => !names.is_testcase(other),
        }) else {
            continue;
        };
        unknown.insert(c.name.as_str());
        // pytest collects a `Test…` class either way, and its `assert` statements are entries
        // (`collect`); its unittest checks (`self.assertEqual`) are not, whichever the base is.
        let plain_asserts_seen = c.name.starts_with("Test");
        let mut checks = 0u32;
        for s in &c.body {
            if let Stmt::FunctionDef(f) = s {
                if f.name.starts_with("test") {
                    let this = f
                        .parameters
                        .args
                        .first()
                        .map(|p| p.parameter.name.to_string())
                        .unwrap_or_default();
                    for stmt in &f.body {
                        checks += nested_checks(stmt, &this).len() as u32;
                        if !plain_asserts_seen {
                            checks += count_asserts(stmt);
                        }
                    }
                }
            }
        }
        if checks == 0 {
            continue;
        }
        out.push(crate::model::Finding {
            shape: crate::shape::Shape::HelperAssertion,
            rule: Some(crate::rules::Rule::from(crate::rules::Findings::UnknownTestCaseBase).reference()),
            line: map.line(c.range.start()),
            message: if plain_asserts_seen {
                format!(
                    "`{}` derives from `{}`, which the file does not define: pytest runs its `test*` methods, and their {checks} unittest check{} (`self.assert…`) are no entry of this extraction",
                    c.name,
                    map.snippet(base.range()),
                    if checks == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "`{}` derives from `{}`, which the file does not define: if that is a `unittest.TestCase`, pytest runs the class's `test*` methods and their {checks} check{}, which this extraction does not see",
                    c.name,
                    map.snippet(base.range()),
                    if checks == 1 { "" } else { "s" }
                )
            },
            unseen: checks,
        });
    }
    out
}

/// How many `assert` statements a statement holds (nested ones too, not in nested functions).
fn count_asserts(stmt: &Stmt) -> u32 {
    struct Count(u32);
    impl<'a> Visitor<'a> for Count {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
                Stmt::Assert(_) => self.0 += 1,
                _ => visitor::walk_stmt(self, stmt),
            }
        }
    }
    let mut count = Count(0);
    count.visit_stmt(stmt);
    count.0
}

/// The unittest checks (`self.assertEqual(…)`) in methods of the file's test cases that are not
/// tests (helpers, `setUp` that cannot be replayed is the test's own reason): pytest makes them only
/// as part of a test that calls the method, and none is an entry. `read`: the names and attributes
/// the module reads; a method none reads is never called, and its checks are never made.
pub fn helper_method_findings(
    body: &[Stmt],
    map: &SourceMap,
    read: &HashSet<&str>,
) -> Vec<crate::model::Finding> {
    let mut out = Vec::new();
    for c in testcase_classes(body) {
        for stmt in &c.body {
            let Stmt::FunctionDef(f) = stmt else { continue };
            if f.name.starts_with("test") || f.name.as_str() == "setUp" {
                continue;
            }
            let Some(this) = f
                .parameters
                .args
                .first()
                .map(|p| p.parameter.name.to_string())
            else {
                continue;
            };
            let checks: usize = f.body.iter().map(|s| nested_checks(s, &this).len()).sum();
            if checks == 0 {
                continue;
            }
            // unittest runs these itself around each test (pytest's unittest plugin calls them).
            let around = matches!(
                f.name.as_str(),
                "tearDown" | "setUpClass" | "tearDownClass" | "asyncSetUp" | "asyncTearDown"
            );
            let reached = around || read.contains(f.name.as_str());
            let rule = if around {
                crate::rules::Findings::AssertInSetupOrTeardown
            } else if reached {
                crate::rules::Findings::UnittestHelperMethodChecks
            } else {
                crate::rules::Findings::UnittestHelperMethodUncalled
            };
            out.push(crate::model::Finding {
                shape: crate::shape::Shape::HelperAssertion,
                rule: Some(crate::rules::Rule::from(rule).reference()),
                line: map.line(f.range.start()),
                message: if around {
                    format!(
                        "`{}.{}` makes {checks} unittest check{} (`{this}.assert…`): unittest runs it itself around the class's tests, and this extraction does not see them",
                        c.name,
                        f.name,
                        if checks == 1 { "" } else { "s" }
                    )
                } else if reached {
                    format!(
                        "`{}.{}` makes {checks} unittest check{} (`{this}.assert…`): pytest makes them as part of a test that calls it, and no call of it is extracted here, so this extraction does not see them",
                        c.name,
                        f.name,
                        if checks == 1 { "" } else { "s" }
                    )
                } else {
                    format!(
                        "`{}.{}` makes unittest checks, and nothing in the file calls it: pytest never makes them",
                        c.name, f.name
                    )
                },
                unseen: if reached { checks as u32 } else { 0 },
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::{extract, Options, Status};

    fn entries(source: &str) -> Vec<(String, Status, String)> {
        extract(source, &Options::new("test_x.py"))
            .assertions
            .into_iter()
            .map(|a| (a.test, a.status, a.expr.or(a.reason).unwrap_or_default()))
            .collect()
    }

    #[test]
    fn a_parametrized_method_is_called_without_its_arguments() {
        let source = "import unittest\nimport pytest\nfrom solution import add\n\nclass TestAdd(unittest.TestCase):\n    @pytest.mark.parametrize('a', [1, 2])\n    def test_param(self, a):\n        self.assertEqual(add(a, 0), a)\n\n    @pytest.mark.parametrize('a', [1, 2])\n    def test_default(self, a=1):\n        self.assertEqual(add(a, 0), a)\n";
        let e = entries(source);
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[0].1, Status::Dropped);
        assert!(
            e[0].2
                .contains("pytest does not parametrize a `unittest.TestCase` method"),
            "{e:?}"
        );
        assert!(e[0].2.contains("line 6"), "{e:?}");
        // With a default the method runs (with it): the decorator is only said to be unknown.
        assert_eq!(e[1].1, Status::Dropped);
        assert!(e[1].2.contains("the test is decorated"), "{e:?}");
    }
}
