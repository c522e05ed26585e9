//! The file's findings: what it shows about the measurement besides its entries (helper asserts,
//! tests not listed, solution names the slug does not say, imports, dropped tests by shape).

use crate::pytest::config::CollectedNames;
use crate::rules::{Config as ConfigRules, Findings, Rule};
use crate::sort::SharedSort as _;
use rustc_hash::FxHashSet as HashSet;
use std::collections::BTreeMap;

use crate::walk::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::case::Case;
use crate::collect;
use crate::model::{Extraction, Finding, Stage};
use crate::module::{Global, ModuleScope};
use crate::shape::Shape;
use crate::source::SourceMap;
use crate::walk::{self, Scope};

/// A test whose node ids the file alone does not tell: nothing is emitted under an id pytest does
/// not print, and the file says so.
pub(super) fn unlisted_finding(
    scope: &ModuleScope,
    map: &SourceMap,
    u: &collect::Unlisted,
) -> Finding {
    let blocks = count_check_blocks(scope, u.func);
    let also = if blocks == 0 {
        String::new()
    } else {
        format!(
            ", nor the {blocks} raises or warns check{} of its `with` blocks",
            if blocks == 1 { "" } else { "s" }
        )
    };
    Finding {
        shape: Shape::ParametrizedInputs,
        rule: Some(Rule::from(Findings::TestIdsUnknown).reference()),
        line: map.line(u.func.range.start()),
        message: format!(
            "`{}`: its test ids cannot be known from the file ({}), so its assertions are not listed{also}{}",
            u.name,
            u.why,
            if u.cases > 1 {
                format!(" (pytest runs {} cases of it)", u.cases)
            } else {
                String::new()
            }
        ),
        unseen: (count_asserts(&u.func.body) + blocks).saturating_mul(u.cases),
    }
}

/// The `with` blocks of a test that are checks pytest makes: `with pytest.raises(…)` (or `warns`,
/// `deprecated_call`), once each, and `with expectation:` over a parameter, once per value of the
/// test's decorators that is one (`pytest.raises(E)` beside `does_not_raise()`).
fn count_check_blocks(scope: &ModuleScope, f: &ast::StmtFunctionDef) -> u32 {
    let is_check = |e: &ast::Expr| {
        matches!(e, ast::Expr::Call(_))
            && matches!(
                scope.pytest_path(e).as_deref(),
                Some("pytest.raises" | "pytest.warns" | "pytest.deprecated_call")
            )
    };
    let mut direct = 0;
    let mut over_parameter = false;
    walk::for_each_stmt(&f.body[..], Scope::Own, |s| {
        if let Stmt::With(w) = s {
            for item in &w.items {
                if is_check(&item.context_expr) {
                    direct += 1;
                } else if let ast::Expr::Name(n) = &item.context_expr {
                    over_parameter |= f
                        .parameters
                        .iter()
                        .any(|p| p.name().as_str() == n.id.as_str());
                }
            }
        }
    });
    let mut values = 0;
    if over_parameter {
        for d in &f.decorator_list {
            walk::for_each_expr(&d.expression, Scope::Own, |e| {
                values += u32::from(is_check(e));
            });
        }
    }
    direct + values
}

/// Every name the module reads (loads) and every attribute it reads: a function none of them names
/// is never called by the file's code.
pub(super) fn read_names(body: &[Stmt]) -> HashSet<&str> {
    let mut reads = HashSet::default();
    walk::for_each_expr(body, Scope::All, |expr| match expr {
        ast::Expr::Name(n) if n.ctx == ast::ExprContext::Load => {
            reads.insert(n.id.as_str());
        }
        ast::Expr::Attribute(a) => {
            reads.insert(a.attr.as_str());
        }
        _ => {}
    });
    reads
}

/// How many asserts a body holds (nested ones included).
fn count_asserts(body: &[Stmt]) -> u32 {
    let mut count = 0;
    walk::for_each_stmt(body, Scope::All, |stmt| {
        count += u32::from(matches!(stmt, Stmt::Assert(_)));
    });
    count
}

/// Asserts outside any collected test: in helpers, fixtures, the loader, module level. (Its own
/// visitor: it carries the names of the functions and classes around each assert.)
pub(super) fn helper_asserts<'a>(
    body: &'a [Stmt],
    cases: &[Case<'a>],
    unlisted: &[collect::Unlisted<'a>],
) -> Vec<(&'a ast::StmtAssert, String)> {
    let tests: HashSet<TextRange> = cases
        .iter()
        .map(|c| c.func.range)
        .chain(unlisted.iter().map(|u| u.func.range))
        .collect();
    struct Finder<'a, 't> {
        tests: &'t HashSet<TextRange>,
        scope: Vec<String>,
        out: Vec<(&'a ast::StmtAssert, String)>,
    }
    impl<'a> Visitor<'a> for Finder<'a, '_> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(f) if self.tests.contains(&f.range) => {}
                Stmt::FunctionDef(f) => {
                    self.scope.push(f.name.to_string());
                    visitor::walk_body(self, &f.body);
                    self.scope.pop();
                }
                Stmt::ClassDef(c) => {
                    self.scope.push(c.name.to_string());
                    visitor::walk_body(self, &c.body);
                    self.scope.pop();
                }
                Stmt::Assert(a) => {
                    let owner = if self.scope.is_empty() {
                        "<module>".to_string()
                    } else {
                        self.scope.join(".")
                    };
                    self.out.push((a, owner));
                }
                _ => visitor::walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, _: &'a ast::Expr) {
            // Statements only: an expression holds no assert.
        }
    }
    let mut finder = Finder {
        tests: &tests,
        scope: Vec::new(),
        out: Vec::new(),
    };
    visitor::walk_body(&mut finder, body);
    finder.out
}

/// What the file shows about the measurement, by line: helper asserts, solution names the slug
/// does not say, imported modules assertions need, and one finding per test dropped for a shape.
#[allow(clippy::too_many_arguments)]
pub(super) fn findings(
    body: &[Stmt],
    extraction: &Extraction,
    scope: &ModuleScope,
    map: &SourceMap,
    helpers: &[(&ast::StmtAssert, String)],
    called: &HashSet<&str>,
    called_at_import: &HashSet<&str>,
    config_names: Option<&CollectedNames>,
) -> Vec<Finding> {
    // A helper's assert that an entry stands for (a test calls the helper) is no finding.
    let entries: HashSet<u32> = extraction.assertions.iter().map(|a| a.span.start).collect();
    let mut out: Vec<Finding> = helpers
        .iter()
        .filter(|(a, _)| {
            extraction.stage != Stage::Full || !entries.contains(&a.range.start().to_u32())
        })
        .map(|(a, owner)| {
            let callers = Callers {
                body,
                called,
                called_at_import,
                config_names,
            };
            helper_finding(extraction.stage, scope, map, a, owner, &callers)
        })
        .collect();
    out.extend(slug_mismatch_finding(extraction));
    out.extend(import_findings(extraction, scope));
    out.extend(dropped_test_findings(extraction));
    out.sort_shared_by_key(|f| f.line);
    out
}

/// The setup and teardown functions pytest calls itself: its xunit-style ones, and unittest's, which
/// its unittest plugin runs.
const RUN_AROUND_TESTS: &[&str] = &[
    "setup_module",
    "teardown_module",
    "setup_function",
    "teardown_function",
    "setup_class",
    "teardown_class",
    "setup_method",
    "teardown_method",
    "setUpModule",
    "tearDownModule",
    "setUpClass",
    "tearDownClass",
    "setUp",
    "tearDown",
    "asyncSetUp",
    "asyncTearDown",
];

/// The names module-level statements call (`check(f)` at import), outside any `def` or `class`.
/// (Its own visitor: it also leaves out `if __name__ == "__main__":` blocks, at any depth.)
pub(super) fn called_at_import(body: &[Stmt]) -> HashSet<&str> {
    struct Calls<'a>(HashSet<&'a str>);
    impl<'a> Visitor<'a> for Calls<'a> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                // A definition's body runs later; its decorators, defaults, annotations and
                // bases run now (`@requires("x")` calls `requires` at import).
                Stmt::FunctionDef(f) => {
                    for d in &f.decorator_list {
                        self.visit_expr(&d.expression);
                    }
                    for p in f.parameters.iter_non_variadic_params() {
                        if let Some(default) = &p.default {
                            self.visit_expr(default);
                        }
                    }
                }
                Stmt::ClassDef(c) => {
                    for d in &c.decorator_list {
                        self.visit_expr(&d.expression);
                    }
                    for base in c.bases() {
                        self.visit_expr(base);
                    }
                }
                // `if __name__ == "__main__":` does not run under pytest.
                Stmt::If(i) if is_main_guard(&i.test) => {}
                _ => visitor::walk_stmt(self, stmt),
            }
        }
        fn visit_expr(&mut self, expr: &'a ast::Expr) {
            if let ast::Expr::Call(c) = expr {
                if let ast::Expr::Name(n) = c.func.as_ref() {
                    self.0.insert(n.id.as_str());
                }
            }
            match expr {
                ast::Expr::Lambda(_) => {}
                _ => visitor::walk_expr(self, expr),
            }
        }
    }
    let mut calls = Calls(HashSet::default());
    visitor::walk_body(&mut calls, body);
    calls.0
}

/// `__name__ == "__main__"` (either way round).
fn is_main_guard(test: &ast::Expr) -> bool {
    let ast::Expr::Compare(c) = test else {
        return false;
    };
    let is = |e: &ast::Expr, name: bool| match e {
        ast::Expr::Name(n) => name && n.id.as_str() == "__name__",
        ast::Expr::StringLiteral(s) => !name && s.value.to_str() == "__main__",
        _ => false,
    };
    c.ops.len() == 1
        && matches!(c.ops[0], ast::CmpOp::Eq)
        && ((is(&c.left, true) && is(&c.comparators[0], false))
            || (is(&c.left, false) && is(&c.comparators[0], true)))
}

/// An assert outside any collected test (`owner`: where it is) that no entry stands for. What it
/// says is true whether or not a test calls `owner`: pytest runs such an assert only as part of
/// what calls it.
/// What may call a function of the file: the names the file calls, those module-level code calls,
/// and the names the configuration makes tests.
struct Callers<'a> {
    /// The module's statements.
    body: &'a [Stmt],
    called: &'a HashSet<&'a str>,
    called_at_import: &'a HashSet<&'a str>,
    config_names: Option<&'a CollectedNames>,
}

fn helper_finding(
    stage: Stage,
    scope: &ModuleScope,
    map: &SourceMap,
    a: &ast::StmtAssert,
    owner: &str,
    callers: &Callers,
) -> Finding {
    let Callers {
        body,
        called,
        called_at_import,
        config_names,
    } = *callers;
    let line = map.line(a.range.start());
    // A test only the configuration's names make one (the extractor collects by pytest's default
    // names): pytest runs its checks, and no entry stands for them.
    if let Some(names) = config_names.filter(|n| stage == Stage::Full && n.collects(owner)) {
        return Finding {
            shape: Shape::HelperAssertion,
            rule: Some(Rule::from(ConfigRules::IniChangesCollection).reference()),
            line,
            message: format!(
                "`{}` in `{owner}`, which pytest collects as a test under the configuration's `{}`: this extraction collects tests by pytest's default names, so it keeps no check of it",
                map.snippet(a.range),
                names.said
            ),
            unseen: 1,
        };
    }
    let last = owner.rsplit('.').next().unwrap_or(owner);
    let snippet = map.snippet(a.range);
    if stage == Stage::Full {
        if let Some(finding) = placed_finding(body, map, a, owner, called, line, &snippet) {
            return finding;
        }
    }
    // pytest (or unittest, through pytest) calls these itself, around the tests.
    let around = RUN_AROUND_TESTS.contains(&last);
    // Whether pytest may run it: at import, in a function whose name the file reads, or around
    // the tests. The loader's own asserts check the harness, not the solution: no check of it is
    // lost.
    let reached = around || called.contains(last);
    let at_import = !around && called_at_import.contains(last);
    let unseen = owner == "<module>" || (reached && !scope.loaders.contains(owner));
    let message = if stage == Stage::AsWritten {
        let place = if owner == "<module>" {
            "at module level".to_string()
        } else {
            format!("in `{owner}`")
        };
        format!("`{snippet}` {place} is not inside a test; taken as a check at this stage, it is evaluated out of its context and leaks into the measurement")
    } else if !reached && owner != "<module>" {
        format!("`{snippet}` in `{owner}` is not inside a test, and nothing in the file calls `{owner}`: pytest never runs it")
    } else if owner == "<module>" {
        format!("`{snippet}` runs at module level, once, when pytest imports the file: if it fails, every test of the file errors; it is not extracted as a check")
    } else if scope.loaders.contains(owner) {
        format!("`{snippet}` in the loader `{owner}` checks the harness, not the solution: no check of it")
    } else if around {
        format!("`{snippet}` in `{owner}`, which pytest runs itself around the tests (setup or teardown): it is a check of the tests it runs around, and this extraction does not see it")
    } else if at_import {
        format!("`{snippet}` in `{owner}` runs when pytest imports the file (module-level code calls `{last}`; if it fails, every test of the file errors), and as part of whatever else calls it: no call of it is extracted here, so it is a check this extraction does not see")
    } else {
        format!("`{snippet}` in `{owner}` is not inside a test: pytest runs it only as part of a test or fixture that calls `{owner}`, and no call of it is extracted here, so it is a check this extraction does not see")
    };
    let rule = if stage == Stage::AsWritten {
        Findings::AssertOutsideTestTakenAsCheck
    } else if !reached && owner != "<module>" {
        Findings::AssertInUncalledHelper
    } else if owner == "<module>" {
        Findings::AssertAtModuleLevel
    } else if scope.loaders.contains(owner) {
        Findings::AssertInLoader
    } else if around {
        Findings::AssertInSetupOrTeardown
    } else if at_import {
        Findings::AssertInHelperCalledAtImport
    } else {
        Findings::AssertInHelperNotSeen
    };
    Finding {
        shape: Shape::HelperAssertion,
        rule: Some(Rule::from(rule).reference()),
        line,
        message,
        unseen: u32::from(stage == Stage::Full && unseen),
    }
}

/// Where an assert outside the tests sits, when that decides whether pytest runs it: under
/// `if __name__ == "__main__":` (never, under pytest), in a class body (at import), in a dunder
/// method of a class the file uses (Python calls it implicitly: an operator, construction, `with`),
/// in a module-level function that a later statement rebinds before anything could keep it (never).
fn placed_finding(
    body: &[Stmt],
    map: &SourceMap,
    a: &ast::StmtAssert,
    owner: &str,
    read: &HashSet<&str>,
    line: u32,
    snippet: &str,
) -> Option<Finding> {
    let finding = |rule: Findings, message: String, unseen: u32| Finding {
        shape: Shape::HelperAssertion,
        rule: Some(Rule::from(rule).reference()),
        line,
        message,
        unseen,
    };
    let enclosing = enclosing(body, a.range);
    if enclosing
        .iter()
        .any(|s| matches!(s, Stmt::If(i) if is_main_guard(&i.test)))
    {
        return Some(finding(
            Findings::AssertInUncalledHelper,
            format!("`{snippet}` is under `if __name__ == \"__main__\":`, which does not run under pytest (it imports the file under its module name): pytest never runs it"),
            0,
        ));
    }
    let defs: Vec<&Stmt> = enclosing
        .iter()
        .copied()
        .filter(|s| matches!(s, Stmt::FunctionDef(_) | Stmt::ClassDef(_)))
        .collect();
    if !defs.is_empty() && defs.iter().all(|s| matches!(s, Stmt::ClassDef(_))) {
        return Some(finding(
            Findings::AssertAtModuleLevel,
            format!("`{snippet}` runs in the body of the class `{owner}`, once, when pytest imports the file: if it fails, every test of the file errors; it is not extracted as a check"),
            1,
        ));
    }
    // A dunder method of a class (directly in its body) whose name the file reads.
    if let [.., Stmt::ClassDef(class), Stmt::FunctionDef(method)] = defs.as_slice() {
        let name = method.name.as_str();
        if name.starts_with("__") && name.ends_with("__") && read.contains(class.name.as_str()) {
            return Some(finding(
                Findings::AssertInHelperNotSeen,
                format!("`{snippet}` in `{owner}`, a method Python calls implicitly (an operator, construction, `with`, …) on instances of `{}`, which the file uses: pytest runs it as part of whatever test or fixture does so, and no call of it is extracted here, so it is a check this extraction does not see", class.name),
                1,
            ));
        }
    }
    // A function nested in a module-level factory that module-level code calls to bind tests
    // (`test_two = make_test(2, 4)`): pytest collects each such name as a test, and runs it.
    if let [Stmt::FunctionDef(factory), Stmt::FunctionDef(_), ..] = defs.as_slice() {
        let made: Vec<&str> = body
            .iter()
            .filter_map(|s| match s {
                Stmt::Assign(a) => match (a.targets.as_slice(), a.value.as_ref()) {
                    ([ast::Expr::Name(n)], ast::Expr::Call(c))
                        if n.id.starts_with("test")
                            && matches!(c.func.as_ref(), ast::Expr::Name(f) if f.id == factory.name.id) =>
                    {
                        Some(n.id.as_str())
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect();
        if !made.is_empty() {
            let names: Vec<String> = made.iter().map(|n| format!("`{n}`")).collect();
            return Some(finding(
                Findings::ChecksNotSeen,
                format!("`{snippet}` in `{owner}`, which module-level code makes into tests pytest collects and runs ({}): no entry stands for them, so each is a check this extraction does not see", names.join(", ")),
                made.len() as u32,
            ));
        }
    }
    // A module-level function that a later module-level statement rebinds, with nothing between
    // them reading its name: the tests, which run after the import, never see it.
    if let Some(Stmt::FunctionDef(f)) = defs.first() {
        let name = f.name.as_str();
        let at = body.iter().position(|s| s.range() == f.range)?;
        let rebinding = body[at + 1..].iter().position(|s| {
            let mut bound = crate::module::BoundNames::default();
            ruff_python_ast::visitor::Visitor::visit_stmt(&mut bound, s);
            bound.names.iter().any(|n| n == name)
        })?;
        let between = &body[at + 1..at + 1 + rebinding];
        let rebinder = &body[at + 1 + rebinding];
        let mut reads_it = false;
        let mut read = |e: &ast::Expr| {
            reads_it |= matches!(e, ast::Expr::Name(n) if n.id.as_str() == name);
        };
        for stmt in between {
            match stmt {
                // A function's body reads the name when it runs, after the rebinding: only what
                // runs at its definition (decorators, defaults, annotations) can keep the old one.
                Stmt::FunctionDef(g) => {
                    for d in &g.decorator_list {
                        walk::for_each_expr(&d.expression, Scope::All, &mut read);
                    }
                    for p in g.parameters.iter() {
                        if let Some(default) = p.default() {
                            walk::for_each_expr(default, Scope::All, &mut read);
                        }
                        if let Some(annotation) = p.annotation() {
                            walk::for_each_expr(annotation, Scope::All, &mut read);
                        }
                    }
                    if let Some(returns) = &g.returns {
                        walk::for_each_expr(returns.as_ref(), Scope::All, &mut read);
                    }
                }
                other => walk::for_each_expr(other, Scope::All, &mut read),
            }
        }
        // The rebinding statement's own expressions run before it binds (`f = wrap(f)`).
        let own: Vec<Stmt> = match rebinder {
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => Vec::new(),
            other => vec![other.clone()],
        };
        walk::for_each_expr(own.as_slice(), Scope::All, |e| {
            reads_it |= matches!(e, ast::Expr::Name(n) if n.id.as_str() == name);
        });
        if let Stmt::FunctionDef(g) = rebinder {
            reads_it |= !g.decorator_list.is_empty();
        }
        if !reads_it {
            return Some(finding(
                Findings::AssertInUncalledHelper,
                format!("`{snippet}` in `{owner}`, which line {} defines again before any test runs, with nothing in between reading it: pytest never runs it", map.line(rebinder.range().start())),
                0,
            ));
        }
    }
    None
}

/// The statements around `range`, outermost first (compound statements, definitions).
fn enclosing(body: &[Stmt], range: TextRange) -> Vec<&Stmt> {
    let mut out = Vec::new();
    let mut level = body;
    'down: loop {
        for stmt in level {
            if stmt.range().contains_range(range) && stmt.range() != range {
                out.push(stmt);
                let mut inner: Vec<&[Stmt]> = Vec::new();
                match stmt {
                    Stmt::FunctionDef(f) => inner.push(&f.body),
                    Stmt::ClassDef(c) => inner.push(&c.body),
                    Stmt::If(i) => {
                        inner.push(&i.body);
                        inner.extend(i.elif_else_clauses.iter().map(|c| c.body.as_slice()));
                    }
                    Stmt::For(f) => inner.extend([f.body.as_slice(), f.orelse.as_slice()]),
                    Stmt::While(w) => inner.extend([w.body.as_slice(), w.orelse.as_slice()]),
                    Stmt::With(w) => inner.push(&w.body),
                    Stmt::Try(t) => {
                        inner.extend([
                            t.body.as_slice(),
                            t.orelse.as_slice(),
                            t.finalbody.as_slice(),
                        ]);
                        for h in &t.handlers {
                            let ast::ExceptHandler::ExceptHandler(h) = h;
                            inner.push(&h.body);
                        }
                    }
                    Stmt::Match(m) => inner.extend(m.cases.iter().map(|c| c.body.as_slice())),
                    _ => {}
                }
                if let Some(next) = inner
                    .into_iter()
                    .find(|b| b.iter().any(|s| s.range().contains_range(range)))
                {
                    level = next;
                    continue 'down;
                }
                break 'down;
            }
        }
        break;
    }
    out
}

/// The tests call solution names other than the slug.
fn slug_mismatch_finding(extraction: &Extraction) -> Option<Finding> {
    let mismatched: Vec<&String> = extraction
        .solution_names
        .iter()
        .filter(|n| **n != extraction.slug)
        .collect();
    if mismatched.is_empty() {
        return None;
    }
    let line = extraction
        .assertions
        .iter()
        .find(|a| a.shapes.contains(&Shape::SlugNameMismatch))
        .map(|a| a.line)
        .unwrap_or(1);
    let listed: Vec<String> = mismatched.iter().map(|n| format!("`{n}`")).collect();
    Some(Finding {
        unseen: 0,
        shape: Shape::SlugNameMismatch,
        rule: Some(Rule::from(Findings::SlugNameMismatch).reference()),
        line,
        message: format!(
            "the tests call {} but the slug is `{}`: a solution that defines only `{}` fails them; name these in the statement",
            listed.join(", "),
            extraction.slug,
            extraction.slug
        ),
    })
}

/// Imported modules that dropped assertions reference, grouped by import.
fn import_findings(extraction: &Extraction, scope: &ModuleScope) -> Vec<Finding> {
    let mut imports: BTreeMap<(u32, String), usize> = BTreeMap::new();
    for a in extraction.dropped() {
        for name in a.unresolved.iter().flatten() {
            // Only where the name is why it is dropped (its reason names it): an assertion
            // dropped for another cause (pytest collects nothing) is not dropped for the name.
            let named = a
                .reason
                .as_deref()
                .is_some_and(|r| r.contains(&format!("`{name}`")));
            if !named {
                continue;
            }
            if let Some(Global::Import { line, .. }) = scope.globals.get(name) {
                *imports.entry((*line, name.clone())).or_default() += 1;
            }
        }
    }
    imports
        .into_iter()
        .map(|((line, name), count)| Finding {
        unseen: 0,
            shape: Shape::StdlibReference,
            rule: Some(Rule::from(Findings::TestFileImportRead).reference()),
            line,
            message: format!(
                "`{name}`, imported by the test file, is read by {count} assertion{} or by code the check{} would replay before {}: the evaluation namespace has only the builtins and what the test file takes from the solution and pytest, not it, so {} dropped",
                if count == 1 { "" } else { "s" },
                if count == 1 { "" } else { "s" },
                if count == 1 { "it" } else { "them" },
                if count == 1 { "it is" } else { "they are" }
            ),
        })
        .collect()
}

/// Other shapes as they occur: one finding per test whose assertions were dropped, under its most
/// specific shape (imported modules are reported per import, by `import_findings`).
fn dropped_test_findings(extraction: &Extraction) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut seen = HashSet::default();
    for a in extraction.dropped() {
        let shape = [
            Shape::ParametrizedInputs,
            Shape::InstanceWithSideEffects,
            Shape::VariableThenAssert,
        ]
        .into_iter()
        .find(|s| a.shapes.contains(s));
        let Some(shape) = shape else { continue };
        if a.shapes.contains(&Shape::StdlibReference) {
            continue;
        }
        if seen.insert(a.test.split('[').next().unwrap_or("").to_string()) {
            out.push(Finding {
                unseen: 0,
                shape,
                rule: a.rule.clone(),
                line: a.line,
                message: format!("`{}`: {}", a.test, a.reason.clone().unwrap_or_default()),
            });
        }
    }
    out
}
