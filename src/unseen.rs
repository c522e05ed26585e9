//! Checks pytest makes that are not `assert` statements the extractor turns into entries, and
//! that no other finding counts: a unittest or mock assert method called anywhere but as a
//! statement of the test (in a comprehension, a lambda, `map(self.assertTrue, …)`, a nested
//! function), an `assert` in a function nested in a test, the call forms of `pytest.raises`,
//! `pytest.warns` and `pytest.deprecated_call`, `pytest.fail`, `raise AssertionError`, and a
//! raises block in a helper a test calls. Each is counted, never left silent: a finding per
//! function, with how many checks pytest may make there (once per case of a parametrized test).

use crate::sort::SharedSort as _;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::model::{Assertion, Finding};
use crate::module::ModuleScope;
use crate::rules::{Findings, Rule};
use crate::shape::Shape;
use crate::source::SourceMap;

/// The raises-style context managers and calls of pytest.
const PYTEST_CHECKS: &[&str] = &[
    "pytest.raises",
    "pytest.warns",
    "pytest.deprecated_call",
    "pytest.RaisesGroup",
    "pytest.RaisesExc",
];

/// A method that checks when called: unittest's `assert…` and `fail…`, mock's `assert_…`.
fn is_check_method(attr: &str) -> bool {
    attr.starts_with("assert") || attr == "fail" || attr.starts_with("fail") && attr.len() > 4
}

/// A call of a check method that checks nothing: unittest's context-manager forms called without
/// the callable (`self.assertRaises(E)` makes a context manager and checks nothing by itself).
fn checks_nothing(c: &ast::ExprCall, attr: &str) -> bool {
    let positional = c.arguments.args.len();
    match attr {
        "assertRaises" | "assertWarns" => positional <= 1,
        "assertRaisesRegex" | "assertWarnsRegex" => positional <= 2,
        "assertLogs" | "assertNoLogs" => true,
        _ => false,
    }
}

struct Walk<'s, 'a> {
    scope: &'s ModuleScope<'a>,
    map: &'s SourceMap<'s>,
    /// Entry span starts: a site there is an entry.
    entries: &'s HashSet<u32>,
    /// Inside a helper (not a test): its own `assert` statements are another finding's.
    helper: bool,
    /// Count the assert methods called as statements of the function (not in a class whose base
    /// the file does not define: `unittest::unknown_classes` counts those).
    statement_checks: bool,
    /// Depth of nested functions, lambdas and comprehensions.
    nested: usize,
    /// Where each site is, for the message, and how many checks pytest may make there.
    sites: Vec<(u32, String, u32)>,
    /// The file's helpers whose asserts an entry stands for (a test calls one as its statement),
    /// with how many asserts each has: any other call of one is a site of that many checks.
    asserting: &'s HashMap<&'s str, u32>,
    /// The function's own top-level statements (a test's; empty for a helper): a call of an
    /// asserting helper as one of them is the call the extractor turns into entries.
    top: HashSet<TextRange>,
    /// Names the function binds itself (its parameters, its assignments): not the helpers.
    shadowed: HashSet<String>,
    /// Local names bound to a check method (`eq = self.assertEqual`): each call of one is a check.
    aliases: HashMap<String, String>,
}

impl Walk<'_, '_> {
    fn site(&mut self, range: TextRange, what: &str) {
        self.sites_of(range, what, 1);
    }

    fn sites_of(&mut self, range: TextRange, what: &str, checks: u32) {
        if self.entries.contains(&range.start().to_u32()) {
            return;
        }
        self.sites
            .push((self.map.line(range.start()), what.to_string(), checks));
    }

    /// The module a check helper `name` (`check…`, `assert…`) is imported from, when the extractor
    /// does not read it (neither the standard library nor the solution).
    fn imported_check(&self, name: &str) -> Option<String> {
        if self.shadowed.contains(name)
            || !(name.starts_with("assert") || name.starts_with("check"))
        {
            return None;
        }
        match self.scope.globals.get(name) {
            Some(crate::module::Global::Import {
                module,
                stdlib: None,
                ..
            }) if !self.scope.is_solution_package(module) => Some(module.to_string()),
            _ => None,
        }
    }

    /// The asserting helper `name` names here, and how many asserts it has.
    fn asserting_helper(&self, name: &str) -> Option<u32> {
        if self.shadowed.contains(name) {
            return None;
        }
        self.asserting.get(name).copied()
    }

    fn pytest_check(&self, e: &Expr) -> Option<String> {
        self.scope
            .pytest_path(e)
            .filter(|p| PYTEST_CHECKS.contains(&p.as_str()) || p == "pytest.fail")
    }
}

impl<'a> Visitor<'a> for Walk<'_, '_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        // `check(f)` as a statement of the test itself: the call whose asserts are entries.
        if let Stmt::Expr(e) = stmt {
            if let Expr::Call(c) = e.value.as_ref() {
                if let Expr::Name(n) = c.func.as_ref() {
                    if self.top.contains(&e.range) && self.asserting_helper(n.id.as_str()).is_some()
                    {
                        for arg in &c.arguments.args {
                            self.visit_expr(arg);
                        }
                        for kw in &c.arguments.keywords {
                            self.visit_expr(&kw.value);
                        }
                        return;
                    }
                }
            }
        }
        match stmt {
            Stmt::FunctionDef(f) => {
                self.nested += 1;
                visitor::walk_body(self, &f.body);
                self.nested -= 1;
                return;
            }
            Stmt::ClassDef(_) => return,
            // `eq = self.assertEqual`: the binding checks nothing; each call of `eq` does.
            Stmt::Assign(a)
                if matches!(a.targets.as_slice(), [Expr::Name(_)])
                    && matches!(a.value.as_ref(), Expr::Attribute(attr) if is_check_method(attr.attr.as_str())) =>
            {
                if let (Expr::Name(n), Expr::Attribute(attr)) = (&a.targets[0], a.value.as_ref()) {
                    self.aliases.insert(n.id.to_string(), attr.attr.to_string());
                    self.visit_expr(&attr.value);
                }
                return;
            }
            Stmt::Assert(a) if self.nested > 0 && !self.helper => {
                self.site(a.range, "an `assert` in a function nested in the test");
            }
            Stmt::Raise(r) => {
                let assertion = r.exc.as_deref().is_some_and(|e| {
                    let callee = match e {
                        Expr::Call(c) => c.func.as_ref(),
                        other => other,
                    };
                    matches!(callee, Expr::Name(n) if n.id.as_str() == "AssertionError")
                });
                if assertion {
                    self.site(r.range, "`raise AssertionError`");
                }
            }
            Stmt::With(w) => {
                for item in &w.items {
                    match (self.pytest_check(&item.context_expr), &item.context_expr) {
                        (Some(path), Expr::Call(c)) => {
                            // A test's own block is an entry; a helper's or a nested one is a site.
                            if self.helper || self.nested > 0 {
                                self.site(c.range(), &format!("a `with {path}` block"));
                            }
                            for arg in &c.arguments.args {
                                self.visit_expr(arg);
                            }
                            for kw in &c.arguments.keywords {
                                self.visit_expr(&kw.value);
                            }
                        }
                        _ => self.visit_expr(&item.context_expr),
                    }
                    if let Some(v) = &item.optional_vars {
                        self.visit_expr(v);
                    }
                }
                visitor::walk_body(self, &w.body);
                return;
            }
            // A check method called as a statement of the test itself is an entry (or its own
            // drop); anywhere else it is a site.
            Stmt::Expr(e) if self.nested == 0 && !self.helper && !self.statement_checks => {
                if let Expr::Call(c) = e.value.as_ref() {
                    for arg in &c.arguments.args {
                        self.visit_expr(arg);
                    }
                    for kw in &c.arguments.keywords {
                        self.visit_expr(&kw.value);
                    }
                    if matches!(c.func.as_ref(), Expr::Attribute(a) if is_check_method(a.attr.as_str()))
                    {
                        return;
                    }
                }
            }
            Stmt::Expr(e) if self.nested == 0 && !self.helper => {
                if let Expr::Call(c) = e.value.as_ref() {
                    // `check(f, 3, 9)` with `check` imported from a module the extractor does not
                    // read (a neighbour, a third-party testing helper): its asserts are unseen.
                    if let Expr::Name(n) = c.func.as_ref() {
                        let name = n.id.as_str();
                        if let Some(crate::module::Global::Import {
                            module,
                            stdlib: None,
                            ..
                        }) = self.scope.globals.get(name)
                        {
                            if (name.starts_with("assert") || name.starts_with("check"))
                                && !self.scope.is_solution_package(module)
                            {
                                self.site(
                                    e.range,
                                    &format!("`{name}(…)` (`{module}`, a module the extractor does not read), whose checks it cannot see"),
                                );
                                // Its name is this site's, not another (see `imported_check`).
                                for arg in &c.arguments.args {
                                    self.visit_expr(arg);
                                }
                                for kw in &c.arguments.keywords {
                                    self.visit_expr(&kw.value);
                                }
                                return;
                            }
                        }
                    }
                    if let Expr::Attribute(attr) = c.func.as_ref() {
                        if is_check_method(attr.attr.as_str())
                            && !checks_nothing(c, attr.attr.as_str())
                        {
                            let covered = self.entries.contains(&e.range.start().to_u32())
                                || self.entries.contains(&c.range().start().to_u32());
                            if !covered {
                                self.site(
                                    e.range,
                                    &format!(
                                        "`….{}(…)` on an object the extractor does not replay",
                                        attr.attr
                                    ),
                                );
                            }
                            for arg in &c.arguments.args {
                                self.visit_expr(arg);
                            }
                            for kw in &c.arguments.keywords {
                                self.visit_expr(&kw.value);
                            }
                            return;
                        }
                    }
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Lambda(_)
            | Expr::ListComp(_)
            | Expr::SetComp(_)
            | Expr::DictComp(_)
            | Expr::Generator(_) => {
                self.nested += 1;
                visitor::walk_expr(self, expr);
                self.nested -= 1;
                return;
            }
            Expr::Call(c) => {
                // A helper of the file whose asserts are entries elsewhere, or a check helper
                // imported from a module the extractor does not read, called here other than as
                // a statement of the test (inside `try`/`with`/`if`/a loop, in an expression), or
                // passed on to a call (`functools.partial(check, f)`, `map(check, xs)`): its
                // asserts are checks pytest makes that no entry stands for.
                let passed = c
                    .arguments
                    .args
                    .iter()
                    .chain(c.arguments.keywords.iter().map(|k| &k.value));
                for (e, how) in std::iter::once((
                    c.func.as_ref(),
                    "called other than as a statement of the test",
                ))
                .chain(passed.map(|a| (a, "passed on to a call")))
                {
                    let Expr::Name(n) = e else { continue };
                    if let Some(checks) = self.asserting_helper(n.id.as_str()) {
                        self.sites_of(
                            n.range,
                            &format!(
                                "the {checks} assert{} of `{}`, {how}",
                                if checks == 1 { "" } else { "s" },
                                n.id
                            ),
                            checks,
                        );
                    } else if let Some(module) = self.imported_check(n.id.as_str()) {
                        self.site(
                            n.range,
                            &format!("`{}` (`{module}`, a module the extractor does not read), {how}, whose checks it cannot see", n.id),
                        );
                    }
                }
                if let Expr::Name(n) = c.func.as_ref() {
                    if let Some(method) = self.aliases.get(n.id.as_str()).cloned() {
                        self.site(
                            c.range(),
                            &format!("`{}(…)`, a name for `….{method}`", n.id),
                        );
                    }
                }
                if let Some(path) = self.pytest_check(expr) {
                    // `with pytest.raises(…)` is the statement's; a call here is the call form.
                    self.site(c.range(), &format!("`{path}(…)` called"));
                } else if let Expr::Attribute(attr) = c.func.as_ref() {
                    if is_check_method(attr.attr.as_str()) {
                        if !checks_nothing(c, attr.attr.as_str()) {
                            self.site(
                                c.range(),
                                &format!("`….{}(…)` inside an expression", attr.attr),
                            );
                        }
                        // Its receiver is no check; its arguments may hold some.
                        self.visit_expr(&attr.value);
                        for arg in &c.arguments.args {
                            self.visit_expr(arg);
                        }
                        for kw in &c.arguments.keywords {
                            self.visit_expr(&kw.value);
                        }
                        return;
                    }
                }
            }
            // `map(self.assertTrue, xs)`: the method passed as a value.
            Expr::Attribute(attr) if is_check_method(attr.attr.as_str()) => {
                self.site(attr.range, &format!("`….{}` passed as a value", attr.attr));
            }
            _ => {}
        }
        visitor::walk_expr(self, expr);
    }
}

/// One finding per function whose checks are counted here: the collected tests (`tests`: their
/// function and how many cases pytest runs it for) and the helpers the file reads (`called`).
pub fn findings(
    body: &[Stmt],
    tests: &[(&ast::StmtFunctionDef, u32)],
    called: &HashSet<&str>,
    scope: &ModuleScope,
    map: &SourceMap,
    entries: &[Assertion],
) -> Vec<Finding> {
    let entries_ids: Vec<String> = entries.iter().map(|a| a.test.clone()).collect();
    let mut aliased: Vec<Finding> = Vec::new();
    let entries: HashSet<u32> = entries.iter().map(|a| a.span.start).collect();
    let asserting = asserting_helpers(body, scope, &entries);
    let test_ranges: HashMap<TextRange, u32> = tests.iter().map(|(f, n)| (f.range, *n)).collect();
    let mut out = Vec::new();
    let testcases: HashSet<TextRange> = crate::unittest::testcase_classes(body)
        .iter()
        .map(|c| c.range)
        .collect();
    let mut report =
        |f: &ast::StmtFunctionDef, runs: u32, helper: bool, statement_checks: bool, owner: &str| {
            let mut walk = Walk {
                scope,
                map,
                entries: &entries,
                helper,
                statement_checks,
                nested: 0,
                sites: Vec::new(),
                aliases: HashMap::default(),
                asserting: &asserting,
                top: if helper {
                    HashSet::default()
                } else {
                    f.body.iter().map(Ranged::range).collect()
                },
                shadowed: own_names(f),
            };
            visitor::walk_body(&mut walk, &f.body);
            if walk.sites.is_empty() {
                return;
            }
            let n: u32 = walk.sites.iter().map(|(_, _, checks)| checks).sum();
            let first: Vec<String> = walk
                .sites
                .iter()
                .take(3)
                .map(|(line, what, _)| format!("{what} (line {line})"))
                .collect();
            let more = if walk.sites.len() > 3 { ", …" } else { "" };
            let how = if helper {
                format!(
                    "`{owner}` makes {n} check{} pytest runs as part of the tests that call it",
                    if n == 1 { "" } else { "s" }
                )
            } else {
                format!(
                    "`{owner}` makes {n} check{} that {} no entry",
                    if n == 1 { "" } else { "s" },
                    if n == 1 { "is" } else { "are" }
                )
            };
            out.push(Finding {
                shape: Shape::HelperAssertion,
                rule: Some(Rule::from(Findings::ChecksNotSeen).reference()),
                line: map.line(f.range.start()),
                message: format!(
                    "{how}: {}{more}; this extraction does not see them",
                    first.join(", ")
                ),
                unseen: n * runs.max(1),
            });
        };
    // The last module-level statement that binds (or deletes) each name: a name the module binds
    // again later is not what pytest collects.
    let mut last: HashMap<String, usize> = HashMap::default();
    for (i, stmt) in body.iter().enumerate() {
        let mut bound = crate::module::BoundNames::default();
        ruff_python_ast::visitor::Visitor::visit_stmt(&mut bound, stmt);
        for name in bound.names {
            last.insert(name, i);
        }
        if let Stmt::Delete(d) = stmt {
            for t in &d.targets {
                if let Expr::Name(n) = t {
                    last.insert(n.id.to_string(), i);
                }
            }
        }
    }
    let rebound = |i: usize, name: &str| last.get(name).is_some_and(|&j| j > i);
    // The entries' ids, once for the file (not once per class).
    let ids: HashSet<&str> = entries_ids.iter().map(String::as_str).collect();
    for (i, stmt) in body.iter().enumerate() {
        match stmt {
            Stmt::FunctionDef(f) if rebound(i, f.name.as_str()) => {}
            Stmt::ClassDef(c) if rebound(i, c.name.as_str()) => {}
            Stmt::FunctionDef(f) => match test_ranges.get(&f.range) {
                Some(runs) => report(f, *runs, false, true, f.name.as_str()),
                None if called.contains(f.name.as_str()) => {
                    report(f, 1, true, true, f.name.as_str())
                }
                None => {}
            },
            Stmt::ClassDef(c) => {
                // `test_again = test_one` in a test class's body: pytest collects the alias as a
                // test of its own, which runs the aliased method's checks under another id.
                for s in &c.body {
                    let Stmt::Assign(a) = s else { continue };
                    let ([Expr::Name(alias)], Expr::Name(target)) =
                        (a.targets.as_slice(), a.value.as_ref())
                    else {
                        continue;
                    };
                    if !alias.id.starts_with("test")
                        || ids.contains(format!("{}::{}", c.name, alias.id).as_str())
                    {
                        continue;
                    }
                    let Some(method) = c.body.iter().find_map(|m| match m {
                        Stmt::FunctionDef(f)
                            if f.name.id == target.id && test_ranges.contains_key(&f.range) =>
                        {
                            Some(f)
                        }
                        _ => None,
                    }) else {
                        continue;
                    };
                    let this = method
                        .parameters
                        .args
                        .first()
                        .map(|p| p.parameter.name.to_string())
                        .unwrap_or_default();
                    let mut n = 0u32;
                    crate::walk::for_each_stmt(&method.body[..], crate::walk::Scope::Own, |st| {
                        n += u32::from(matches!(st, Stmt::Assert(_)));
                    });
                    n += method
                        .body
                        .iter()
                        .map(|st| crate::unittest::nested_checks(st, &this).len() as u32)
                        .sum::<u32>();
                    if n > 0 {
                        aliased.push(Finding {
                            shape: Shape::HelperAssertion,
                            rule: Some(Rule::from(Findings::ChecksNotSeen).reference()),
                            line: map.line(s.range().start()),
                            message: format!(
                                "`{} = {}` (line {}) makes pytest collect `{}::{}`, a test of its own that runs the {n} check{} of `{}`: no entry stands for it, so this extraction does not see them",
                                alias.id,
                                target.id,
                                map.line(s.range().start()),
                                c.name,
                                alias.id,
                                if n == 1 { "" } else { "s" },
                                target.id
                            ),
                            unseen: n,
                        });
                    }
                }
                for s in &c.body {
                    if let Stmt::FunctionDef(f) = s {
                        if let Some(runs) = test_ranges.get(&f.range) {
                            let statements = testcases.contains(&c.range);
                            report(
                                f,
                                *runs,
                                false,
                                statements,
                                &format!("{}.{}", c.name, f.name),
                            );
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out.extend(aliased);
    out
}

/// The file's helpers (module-level `def`s, as the module finally binds them) whose own asserts an
/// entry stands for, with how many asserts each has. A helper none of whose asserts is an entry is
/// counted by its asserts' findings instead (`extract::findings`), once each.
fn asserting_helpers<'b>(
    body: &'b [Stmt],
    scope: &ModuleScope,
    entries: &HashSet<u32>,
) -> HashMap<&'b str, u32> {
    let mut out = HashMap::default();
    for stmt in body {
        let Stmt::FunctionDef(f) = stmt else { continue };
        let is_final = matches!(
            scope.globals.get(f.name.as_str()),
            Some(crate::module::Global::Helper { def: Some(d), .. }) if d.range == f.range
        );
        if !is_final {
            continue;
        }
        let mut asserts = Vec::new();
        crate::walk::for_each_stmt(&f.body[..], crate::walk::Scope::Own, |s| {
            if let Stmt::Assert(a) = s {
                asserts.push(a.range.start().to_u32());
            }
        });
        if asserts.iter().any(|a| entries.contains(a)) {
            out.insert(f.name.as_str(), asserts.len() as u32);
        }
    }
    out
}

/// The names a function binds itself: its parameters and the names its own statements store.
fn own_names(f: &ast::StmtFunctionDef) -> HashSet<String> {
    let mut out: HashSet<String> = f.parameters.iter().map(|p| p.name().to_string()).collect();
    crate::walk::for_each_expr(&f.body[..], crate::walk::Scope::Own, |e| {
        if let Expr::Name(n) = e {
            if n.ctx.is_store() {
                out.insert(n.id.to_string());
            }
        }
    });
    out
}

/// The test file's doctests, which pytest collects as tests under `--doctest-modules`
/// (`DoctestModule`: `doctest.DocTestFinder` over the module): the module's docstring and those of
/// its functions and classes, and of the classes' methods and nested classes, each example (a
/// `>>>` line) a check no entry stands for. One finding per docstring with examples.
pub fn doctest_findings(body: &[Stmt], map: &SourceMap) -> Vec<Finding> {
    fn docstring(body: &[Stmt]) -> Option<&ast::ExprStringLiteral> {
        match body.first() {
            Some(Stmt::Expr(e)) => e.value.as_string_literal_expr(),
            _ => None,
        }
    }
    fn visit<'b>(
        body: &'b [Stmt],
        owner: &str,
        out: &mut Vec<(String, &'b ast::ExprStringLiteral)>,
    ) {
        for stmt in body {
            match stmt {
                Stmt::FunctionDef(f) => {
                    if let Some(doc) = docstring(&f.body) {
                        out.push((format!("{owner}{}", f.name), doc));
                    }
                }
                Stmt::ClassDef(c) => {
                    let name = format!("{owner}{}", c.name);
                    if let Some(doc) = docstring(&c.body) {
                        out.push((name.clone(), doc));
                    }
                    visit(&c.body, &format!("{name}."), out);
                }
                _ => {}
            }
        }
    }
    let mut docs = Vec::new();
    if let Some(doc) = docstring(body) {
        docs.push(("the module".to_string(), doc));
    }
    visit(body, "", &mut docs);
    docs.into_iter()
        .filter_map(|(owner, doc)| {
            let text = doc.value.to_str();
            let examples = text
                .lines()
                .filter(|l| l.trim_start().starts_with(">>>"))
                .count() as u32;
            (examples > 0).then(|| {
                let whose = if owner == "the module" {
                    "the module's docstring".to_string()
                } else {
                    format!("the docstring of `{owner}`")
                };
                Finding {
                    shape: Shape::HelperAssertion,
                    rule: Some(Rule::from(Findings::DoctestsNotSeen).reference()),
                    line: map.line(doc.range.start()),
                    message: format!(
                        "{whose} holds {examples} doctest example{s}: `--doctest-modules` (in `addopts`) makes pytest run {them} as a test of this file, and this extraction does not see {them}",
                        s = if examples == 1 { "" } else { "s" },
                        them = if examples == 1 { "it" } else { "them" },
                    ),
                    unseen: examples,
                }
            })
        })
        .collect()
}

/// The asserts of conftest fixtures the tests request (by a parameter, the nearest conftest's
/// fixture of that name, when the test file defines none) or that are autouse: pytest runs them
/// before each such test, and no entry stands for them. One finding per fixture, on the line of
/// the first test that requests it, counting each assert once per test run.
pub fn conftest_fixture_findings(
    body: &[Stmt],
    tests: &[(&ast::StmtFunctionDef, u32)],
    conftests: &[crate::Conftest],
    map: &SourceMap,
) -> Vec<Finding> {
    let defined_here: HashSet<&str> = body
        .iter()
        .filter_map(|s| match s {
            Stmt::FunctionDef(f) => Some(f.name.as_str()),
            _ => None,
        })
        .collect();
    // name -> (conftest label, line, asserts, autouse, when they run); nearer conftests (later)
    // override.
    let mut fixtures: HashMap<String, (String, u32, u32, bool, &str)> = HashMap::default();
    for conftest in conftests {
        let Ok(parsed) = ruff_python_parser::parse_module(&conftest.source) else {
            continue;
        };
        let cmap = SourceMap::new(&conftest.source, parsed.tokens());
        for stmt in parsed.suite() {
            let Stmt::FunctionDef(f) = stmt else { continue };
            let fixture = f.decorator_list.iter().find(|d| {
                let e = match &d.expression {
                    Expr::Call(c) => c.func.as_ref(),
                    other => other,
                };
                matches!(e, Expr::Attribute(a) if a.attr.as_str() == "fixture")
                    || matches!(e, Expr::Name(n) if n.id.as_str() == "fixture")
            });
            let Some(decorator) = fixture else {
                fixtures.remove(f.name.as_str());
                continue;
            };
            let autouse = matches!(&decorator.expression, Expr::Call(c)
            if c.arguments.keywords.iter().any(|k| {
                k.arg.as_ref().is_some_and(|a| a.as_str() == "autouse")
                    && matches!(&k.value, Expr::BooleanLiteral(b) if b.value)
            }));
            // Asserts before the statement that yields run at setup, before the test; those
            // after it at teardown, after the test.
            let yields_at = f.body.iter().position(|st| {
                crate::walk::find_expr(st, crate::walk::Scope::Own, |e| {
                    matches!(e, Expr::Yield(_) | Expr::YieldFrom(_)).then_some(())
                })
                .is_some()
            });
            let (mut asserts, mut after) = (0u32, false);
            for (i, top) in f.body.iter().enumerate() {
                let mut here = 0u32;
                crate::walk::for_each_stmt(top, crate::walk::Scope::Own, |st| {
                    here += u32::from(matches!(st, Stmt::Assert(_)));
                });
                asserts += here;
                after |= here > 0 && yields_at.is_some_and(|y| i >= y);
            }
            let before = f.body.iter().enumerate().any(|(i, top)| {
                yields_at.is_none_or(|y| i < y)
                    && crate::walk::find_stmt(top, crate::walk::Scope::Own, |st| {
                        matches!(st, Stmt::Assert(_)).then_some(())
                    })
                    .is_some()
            });
            let when = match (before, after) {
                (_, false) => "before each of",
                (false, true) => "at teardown, after each of",
                (true, true) => "before and at teardown after each of",
            };
            fixtures.insert(
                f.name.to_string(),
                (
                    conftest.path.clone(),
                    cmap.line(f.range.start()),
                    asserts,
                    autouse,
                    when,
                ),
            );
        }
    }
    let mut out = Vec::new();
    let mut names: Vec<&String> = fixtures.keys().collect();
    names.sort_shared();
    for name in names {
        let (label, line, asserts, autouse, when) = &fixtures[name];
        if *asserts == 0 || defined_here.contains(name.as_str()) {
            continue;
        }
        let requesting: Vec<&(&ast::StmtFunctionDef, u32)> = tests
            .iter()
            .filter(|(f, _)| {
                *autouse
                    || f.parameters
                        .iter_non_variadic_params()
                        .any(|p| p.parameter.name.as_str() == name && p.default.is_none())
            })
            .collect();
        let Some((first, _)) = requesting.first() else {
            continue;
        };
        let runs: u32 = requesting.iter().map(|(_, n)| (*n).max(1)).sum();
        let how = if *autouse {
            "an autouse fixture"
        } else {
            "a fixture the tests request"
        };
        out.push(Finding {
            shape: Shape::HelperAssertion,
            rule: Some(Rule::from(Findings::ChecksNotSeen).reference()),
            line: map.line(first.range.start()),
            message: format!(
                "`{name}`, {how} from `{label}` (line {line}), makes {asserts} assert{} pytest runs {when} {runs} test{}: no entry stands for {}, so this extraction does not see {}",
                if *asserts == 1 { "" } else { "s" },
                if runs == 1 { "" } else { "s" },
                if *asserts == 1 { "it" } else { "them" },
                if *asserts == 1 { "it" } else { "them" },
            ),
            unseen: asserts * runs,
        });
    }
    out
}
