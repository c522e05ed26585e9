//! The file as a whole: [`collect`], the entry point (the module's marks and fixtures, then its
//! body), `__test__ = False` at module level, and what makes pytest run no test of the file as
//! written (a test that is a generator, `pytest_plugins`).

use rustc_hash::FxHashSet as HashSet;

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::module::{ConftestFixtureDef, ModuleScope};
use crate::names;
use crate::pytest::ids;
use crate::pytest::value::{Evaluator, Place};
use crate::rules::{Collection, Reason};
use crate::sort::SharedSort as _;
use crate::source::SourceMap;
use crate::walk::{self, Scope};

use super::body::Within;
use super::fixtures::Fixtures;
use super::marks::{pytestmark, Mark};
use super::{kept, Case, Collector, Unlisted};

/// What collecting the file gives: every test case of the module, in source order, the tests
/// whose ids cannot be known, and why pytest collects no test of the file, when it cannot.
pub struct Collected<'a> {
    pub cases: Vec<Case<'a>>,
    pub unlisted: Vec<Unlisted<'a>>,
    /// A collection error of the whole file (a module-level `unittest.main()`, a test that is a
    /// generator, an id pytest refuses to make): pytest makes none of the file's checks.
    pub collects_nothing: Option<Reason>,
}

/// The fixtures a conftest.py defines, as collection reads them (`ModuleScope::conftest_defs`):
/// what each requests, whether it is autouse, its scope, and for `params=` the ids pytest gives
/// each param (`FixtureDef.params`, `IdMaker`), read in the conftest's own scope. `label`: the
/// conftest's path.
pub(crate) fn conftest_fixtures<'a>(
    body: &'a [Stmt],
    scope: &ModuleScope<'a>,
    map: &SourceMap,
    label: &str,
    long_str: &ids::LongStrIds,
    escaping: &ids::EscapeMode,
) -> Vec<(String, ConftestFixtureDef)> {
    let fixtures = Fixtures::of(body, scope, None, None);
    let c = Collector {
        scope,
        map,
        eval: Evaluator {
            scope,
            module: body,
            imports: Default::default(),
        },
        cases: Vec::new(),
        unlisted: Vec::new(),
        class_fixtures: Vec::new(),
        exclude: HashSet::default(),
        unittest_classes: HashSet::default(),
        reorder: None,
        long_str: long_str.clone(),
        escaping: ids::Escaping::new(escaping.clone()),
        unlisted_cases: None,
    };
    let mut out: Vec<(u32, String, ConftestFixtureDef)> = fixtures
        .by_name
        .iter()
        .map(|(name, def)| {
            let line = map.line(def.func.range.start());
            let params = def.params.map(|params| {
                c.parameter_sets(
                    vec![name.clone()],
                    params,
                    def.ids,
                    def.place,
                    line,
                    Some(def.func.name.as_str()),
                )
                .map(|p| {
                    p.sets
                        .into_iter()
                        .map(|set| {
                            let id = match set.id {
                                ids::Id::Shown(id) => Some(id),
                                ids::Id::Hidden => None,
                            };
                            (id, set.not_run)
                        })
                        .collect()
                })
                .map_err(|why| {
                    let count = match params {
                        Expr::List(l) if !l.elts.iter().any(Expr::is_starred_expr) => {
                            Some(l.elts.len())
                        }
                        Expr::Tuple(t) if !t.elts.iter().any(Expr::is_starred_expr) => {
                            Some(t.elts.len())
                        }
                        _ => None,
                    };
                    (
                        format!("its ids cannot be known from the conftest ({why})"),
                        count,
                    )
                })
            });
            let def = ConftestFixtureDef {
                label: format!("`{label}` (line {line})"),
                argnames: def.argnames.clone(),
                autouse: def.autouse,
                scope: def.scope.clone(),
                params,
            };
            (line, name.clone(), def)
        })
        .collect();
    out.sort_shared_by_key(|(line, _, _)| *line);
    out.into_iter().map(|(_, n, d)| (n, d)).collect()
}

/// Every test case of the module, in source order, and the tests whose ids cannot be known.
pub fn collect<'a>(
    body: &'a [Stmt],
    scope: &ModuleScope<'a>,
    map: &SourceMap,
    long_str: &ids::LongStrIds,
    escaping: &ids::EscapeMode,
) -> Collected<'a> {
    let module_marks: Vec<Mark<'a>> = pytestmark(body)
        .into_iter()
        .map(|expr| Mark {
            expr,
            place: Place::module(),
            own: false,
        })
        .collect();
    let fixtures = Fixtures::of(body, scope, None, None);
    let mut c = Collector {
        scope,
        map,
        eval: Evaluator {
            scope,
            module: body,
            imports: Default::default(),
        },
        cases: Vec::new(),
        unlisted: Vec::new(),
        class_fixtures: Vec::new(),
        exclude: HashSet::default(),
        unittest_classes: crate::unittest::testcase_classes(body)
            .iter()
            .map(|c| c.range)
            .collect(),
        reorder: None,
        long_str: long_str.clone(),
        escaping: ids::Escaping::new(escaping.clone()),
        unlisted_cases: None,
    };
    // `__test__ = False` at module level: pytest collects nothing from the file.
    if assigns_false_test(body) {
        return Collected {
            cases: Vec::new(),
            unlisted: Vec::new(),
            collects_nothing: None,
        };
    }
    let generate = module_def(body, "pytest_generate_tests").map(|f| map.line(f.range.start()));
    c.collect_in(Within {
        body,
        prefix: "",
        marks: &module_marks,
        setup: &[],
        fixtures: &fixtures,
        generate,
    });
    if let Some(why) = &c.reorder {
        for case in &mut c.cases {
            if let Some((name, value)) = case
                .params
                .iter()
                .find(|(_, v)| !names::is_immutable_literal(v))
            {
                case.not_run.get_or_insert_with(|| {
                    kept(Collection::ParamObjectReordered.because(format!(
                        "`{name}` is the object `{}` (line {}) that pytest may hand another test first: {why}",
                        map.snippet(value.range()),
                        map.line(value.range().start())
                    )))
                });
            }
        }
    }
    c.cases.extend(crate::unittest::cases(body, map));
    // An id pytest cannot make (under the no-escaping key) fails the collection of the whole file.
    let refused = c
        .escaping
        .refused()
        .map(|why| Collection::IdEscapingRefusesFile.because(why));
    let mut collects_nothing = None;
    if let Some(why) = refused.or_else(|| file_blocker(body, &c.cases, map)) {
        for case in &mut c.cases {
            case.not_run = Some(kept(why.clone()));
        }
        // Plugins in the test file change the tests; the others fail the file's collection.
        if why.rule != crate::rules::Rule::Collection(Collection::PluginsInTestFile) {
            collects_nothing = Some(why);
        }
    }
    // A generator method of a unittest test case is collected (pytest's unittest plugin does not
    // refuse it); unittest calls it, gets a generator, and its body never runs.
    for case in &mut c.cases {
        if case.unittest && case.not_run.is_none() && is_generator(case.func) {
            case.not_run = Some(kept(Collection::TestIsGenerator.because(format!(
                "the test method `{}` (line {}) contains `yield`: unittest calls it and gets a generator, so its body never runs and pytest makes none of its checks (the test passes, or fails where a warning filter makes unittest's `DeprecationWarning` about its return value an error)",
                case.func.name,
                map.line(case.func.range.start())
            ))));
        }
    }
    Collected {
        cases: c.cases,
        unlisted: c.unlisted,
        collects_nothing,
    }
}

/// Whether a body assigns `__test__` a value other than `True` (pytest then skips what it names).
fn assigns_false_test(body: &[Stmt]) -> bool {
    body.iter().any(|s| {
        matches!(s, Stmt::Assign(a)
        if matches!(a.targets.as_slice(), [Expr::Name(n)] if n.id.as_str() == "__test__")
            && !matches!(a.value.as_ref(), Expr::BooleanLiteral(b) if b.value))
    })
}

/// What makes pytest run no test of the file as written, or every test under code the extractor
/// does not see: a collected test that is a generator (pytest 9 refuses the whole file), or
/// `pytest_plugins` in the test file (plugins whose hooks may skip, fail or change any test).
fn file_blocker(body: &[Stmt], cases: &[Case], map: &SourceMap) -> Option<Reason> {
    for stmt in body {
        if let Stmt::Assign(a) = stmt {
            if a.targets
                .iter()
                .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == "pytest_plugins"))
            {
                return Some(Collection::PluginsInTestFile.because(format!(
                    "the test file loads plugins (`pytest_plugins`, line {}), whose hooks may skip, fail or change any test",
                    map.line(stmt.range().start())
                )));
            }
        }
    }
    if let Some(why) = unittest_main_at_import(body, map) {
        return Some(why);
    }
    // pytest's own collector refuses a generator test; a unittest method is collected by the
    // unittest plugin, which does not (see the caller).
    cases.iter().find(|c| !c.unittest && is_generator(c.func)).map(|c| {
        Collection::TestIsGenerator.because(format!(
            "the test `{}` (line {}) contains `yield`: pytest 9 refuses to collect the file (\"'yield' keyword is allowed in fixtures, but not in tests\")",
            c.func.name,
            map.line(c.func.range.start())
        ))
    })
}

/// A module-level call of `unittest.main()` (`import unittest`) or `main()` (`from unittest import
/// main`), outside `if __name__ == "__main__":`: when pytest imports the file, unittest parses
/// pytest's command line, runs the tests itself and exits (`SystemExit`), so pytest collects no test.
fn unittest_main_at_import(body: &[Stmt], map: &SourceMap) -> Option<Reason> {
    let imports = |module: &str, name: &str| {
        body.iter().any(|s| match s {
            Stmt::Import(i) if module.is_empty() => i
                .names
                .iter()
                .any(|a| a.name.as_str() == name && a.asname.is_none()),
            Stmt::ImportFrom(f) => {
                f.level == 0
                    && f.module.as_ref().is_some_and(|m| m.as_str() == module)
                    && f.names
                        .iter()
                        .any(|a| a.name.as_str() == name && a.asname.is_none())
            }
            _ => false,
        })
    };
    body.iter().find_map(|stmt| {
        let Stmt::Expr(e) = stmt else { return None };
        let Expr::Call(call) = e.value.as_ref() else {
            return None;
        };
        let is_main = match call.func.as_ref() {
            Expr::Attribute(a) => {
                a.attr.as_str() == "main"
                    && matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == "unittest")
                    && imports("", "unittest")
            }
            Expr::Name(n) => n.id.as_str() == "main" && imports("unittest", "main"),
            _ => false,
        };
        is_main.then(|| {
            crate::rules::ModuleCode::UnittestMainAtImport.because(format!(
                "the file calls `{}` at module level (line {}): when pytest imports the file, unittest runs the tests itself and exits (`SystemExit`), so pytest collects no test",
                map.snippet(call.range()),
                map.line(stmt.range().start())
            ))
        })
    })
}

/// Whether a function's own body (not a nested function, class or lambda) yields.
fn is_generator(f: &ast::StmtFunctionDef) -> bool {
    walk::any_expr(&f.body[..], Scope::Own, |e| {
        matches!(e, Expr::Yield(_) | Expr::YieldFrom(_))
    })
}

fn module_def<'a>(body: &'a [Stmt], name: &str) -> Option<&'a ast::StmtFunctionDef> {
    body.iter().rev().find_map(|s| match s {
        Stmt::FunctionDef(f) if f.name.as_str() == name => Some(f),
        _ => None,
    })
}
