//! `conftest.py` files: pytest imports every one from the rootdir down to the test file's folder
//! before the tests run. Their autouse fixtures, hooks, plugins and import-time effects run around
//! every test, and their fixtures are requested by name. The extractor does not replay conftest
//! code: what may run before a test makes the test's asserts depend on it (dropped, naming it), and
//! a fixture from a conftest is known by name, so the reason says where it comes from.

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_python_parser::parse_module;
use ruff_text_size::{Ranged, TextRange};

use crate::module::{kept, Fixture, ModuleScope, Reword};
use crate::rules::{Config, Fixtures, ModuleCode, Reason};
use crate::source::SourceMap;
use crate::walk::{for_each_stmt, Scope};

/// One `conftest.py` the test file sees: a label for messages (its path) and its text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conftest {
    pub path: String,
    pub source: String,
    /// The package pytest imports it in, when its folder is one (the folders from the outermost
    /// one with an `__init__.py` down to its own, dotted: `glom.test` for `glom/test/conftest.py`
    /// with `glom/__init__.py` and `glom/test/__init__.py`); `None` when its folder has no
    /// `__init__.py` (pytest imports it as the top-level module `conftest`). Importing
    /// `glom.test.conftest` imports the package `glom` first: when that package is a solution
    /// module, the conftest's code runs after the solution's import, as a bench loop's does.
    pub package: Option<String>,
}

/// Hooks that run nothing around a collected test: they declare options, decide which files are
/// collected at all, or run after the session.
const DECLARING_HOOKS: &[&str] = &[
    "pytest_addoption",
    "pytest_ignore_collect",
    "pytest_report_header",
    "pytest_terminal_summary",
    "pytest_sessionfinish",
    "pytest_unconfigure",
];

/// The package `__init__.py` files pytest imports before the test module: code of theirs that is
/// not inert (a docstring, `pass`, standard-library imports, plain `def`s and classes, literal
/// bindings) runs before every test of the file, and may change the solution (`import solution;
/// solution.SCALE = 10`): a barrier to every test, naming the file and the line.
pub fn apply_package_inits(scope: &mut ModuleScope, inits: &[Conftest]) {
    // The solution package's own `__init__.py` (tests inside it) is the solution's import.
    let outside: Vec<&Conftest> = inits
        .iter()
        .filter(|i| {
            !i.package
                .as_deref()
                .is_some_and(|p| scope.is_solution_package(p))
        })
        .collect();
    for init in outside {
        let Ok(parsed) = ruff_python_parser::parse_module(&init.source) else {
            scope.global_barriers.push((
                0,
                kept(ModuleCode::ImportedFileDoesNotParse.because(format!(
                    "`{}`, which pytest imports before the test module, does not parse",
                    init.path
                ))),
            ));
            continue;
        };
        let map = SourceMap::new(&init.source, parsed.tokens());
        let mut bound: Vec<String> = Vec::new();
        for stmt in parsed.suite() {
            // Importing the solution itself only loads it earlier than the test module would.
            let imports_solution = matches!(stmt, Stmt::Import(i)
                if i.names.iter().all(|a| scope.is_solution_package(a.name.as_str())));
            let inert = imports_solution
                || crate::flatten::stmt_is_inert(stmt, &|n| bound.iter().any(|b| b == n), &|_| {
                    true
                });
            let mut names = crate::module::BoundNames::default();
            ruff_python_ast::visitor::Visitor::visit_stmt(&mut names, stmt);
            bound.extend(names.names);
            if !inert {
                scope.global_barriers.push((
                    0,
                    kept(ModuleCode::PackageInitRunsCode.because(format!(
                        "`{}` runs `{}` (its line {}) when pytest imports the test's package, before the test module",
                        init.path,
                        map.snippet(stmt.range()),
                        map.line(stmt.range().start())
                    ))),
                ));
                break;
            }
        }
    }
}

/// Fold what the conftest files (outermost first) do into the test file's scope. `prepend`:
/// pytest imports conftests in its default import mode (`prepend`), in which a conftest inside a
/// package is imported as a submodule of it, after the package.
pub fn apply(
    scope: &mut ModuleScope,
    file: (&[Stmt], &SourceMap),
    conftests: &[Conftest],
    solution_modules: &[String],
    prepend: bool,
    ids: (
        &crate::pytest::ids::LongStrIds,
        &crate::pytest::ids::EscapeMode,
    ),
) {
    let shadows = FileBindings::of(file.0, file.1, scope);
    // Nearer conftests override farther ones; the test file's own fixtures override all.
    for (k, conftest) in conftests.iter().enumerate().rev() {
        let label = &conftest.path;
        let Ok(parsed) = parse_module(&conftest.source) else {
            scope.global_barriers.push((
                1,
                kept(ModuleCode::ImportedFileDoesNotParse.because(format!(
                    "`{label}` has a syntax error; pytest cannot import it, so no test runs"
                ))),
            ));
            continue;
        };
        let map = SourceMap::new(&conftest.source, parsed.tokens());
        let body = parsed.suite();
        let after_solution = prepend
            && conftest
                .package
                .as_deref()
                .is_some_and(|p| scope.is_solution_package(p));
        let inner = ModuleScope::analyse_conftest(body, &map, solution_modules, after_solution);
        // Its import-time code, replayed before every test when it can be (see
        // `flatten::conftest_replay`); else a barrier that names the line.
        match crate::flatten::conftest_replay(&inner, &map) {
            Ok(Some((text, line))) => {
                scope.conftest_replays.insert(
                    0,
                    crate::module::ConftestReplay {
                        label: label.clone(),
                        text,
                        line,
                    },
                );
            }
            Ok(_) => {}
            Err((line, why)) => scope
                .global_barriers
                .push((line, kept(why.map(|t| format!("in `{label}`: {t}"))))),
        }
        let doctest_only: Vec<String> = if doctest_namespace_overridden(scope, conftests) {
            Vec::new()
        } else {
            doctest_only_fixtures(body, &inner)
        };
        for (_, why) in &inner.global_barriers {
            if doctest_only.iter().any(|name| {
                why.as_str()
                    .starts_with(&format!("the autouse fixture `{name}` "))
            }) {
                continue;
            }
            // Its messages say where the code runs: when pytest imports the conftest.
            let why = why.clone().reword(|t| {
                let t = t.replace("when the test file is imported", "when pytest imports it");
                format!("in `{label}`: {t}")
            });
            scope.global_barriers.push((1, why));
        }
        let mut mirrored = 0;
        for stmt in body {
            match import_may_fail(stmt, &map, scope) {
                Some(MayFail::Mirror(imports)) => {
                    // The evaluator makes the same import before every check (an `import`
                    // binding under a name of its own): when it fails, every check errors, as
                    // pytest then runs no test.
                    for (module, attr) in imports {
                        let binding = crate::model::Binding::Import {
                            name: format!("{CONFTEST_IMPORT_PREFIX}{k}_{mirrored}"),
                            module,
                            attr,
                        };
                        mirrored += 1;
                        scope
                            .solution_bindings
                            .insert(0, (TextRange::default(), binding));
                    }
                }
                Some(MayFail::Drop(why)) => scope
                    .global_barriers
                    .push((1, kept(why.map(|t| format!("`{label}` {t}"))))),
                None => {}
            }
            if let Some(why) = hook_or_plugin(stmt, &map) {
                scope
                    .global_barriers
                    .push((1, kept(why.map(|t| format!("`{label}` {t}")))));
            }
        }
        // What collection needs of its fixtures (params and their ids, autouse, dependencies):
        // the nearest conftest's of each name, outermost conftest first.
        let defs: Vec<_> =
            crate::collect::conftest_fixtures(body, &inner, &map, label, ids.0, ids.1)
                .into_iter()
                .filter(|(name, _)| {
                    !scope.conftest_defs.iter().any(|(n, _)| n == name)
                        && shadows.of_name(name).is_none()
                })
                // An autouse fixture that only fills `doctest_namespace` runs no code a test sees.
                .map(|(name, mut def)| {
                    def.autouse &= !doctest_only.contains(&name);
                    (name, def)
                })
                .collect();
        scope.conftest_defs.splice(0..0, defs);
        for (name, fixture) in inner.fixtures.iter() {
            if scope.fixtures.contains_key(name) {
                continue;
            }
            let line = fixture_line(body, name, &map);
            if let Some(binding) = shadows.of_name(name) {
                scope.fixtures.insert(
                    name.clone(),
                    Fixture::Unsupported {
                        why: kept(Fixtures::FixtureNameBoundByFile.because(format!(
                            "`{name}` is a fixture from `{label}` (line {line}), but the test file {binding}: when that makes a fixture of the test module, pytest hands the test that one instead, which the extractor does not read"
                        ))),
                    },
                );
                continue;
            }
            let why = |detail: &str| {
                Fixture::Unsupported {
                why: kept(Fixtures::FixtureFromConftest.because(format!("`{name}` is a fixture from `{label}` (line {line}), which the extractor does not replay{detail}, and its setup may change what the assertion reads"))),
            }
            };
            let fixture = match fixture {
                // Its value reads the conftest's imports from the solution as the evaluator's
                // bindings take them, right after the solution's import: conftest code before such
                // an import is a barrier already (`ModuleScope::settle_prelude`).
                Fixture::Value {
                    expr,
                    params,
                    defaults,
                    ..
                } => {
                    let module = match &conftest.package {
                        Some(p) => format!("{p}.conftest"),
                        None => "conftest".to_string(),
                    };
                    match crate::flatten::conftest_fixture(
                        &inner,
                        &map,
                        expr,
                        params,
                        defaults,
                        &format!("_bx_c{k}_"),
                        name,
                        &module,
                    ) {
                        Ok(replay) => {
                            for binding in replay.bindings {
                                if !scope.solution_bindings.iter().any(|(_, b)| *b == binding) {
                                    scope
                                        .solution_bindings
                                        .insert(0, (TextRange::default(), binding));
                                }
                            }
                            Fixture::Conftest {
                                text: replay.text.into(),
                                alone: replay.alone.into(),
                                constants: replay.constants,
                                params: params.clone(),
                                reads: replay.reads,
                                label: format!("`{label}` (line {line})"),
                            }
                        }
                        Err(detail) => why(&format!(" ({detail})")),
                    }
                }
                _ => why(""),
            };
            scope.fixtures.insert(name.clone(), fixture);
        }
    }
}

/// How the test file binds names at module level other than by a fixture `def` the extractor
/// reads (`ModuleScope::fixtures`), a plain `def` or a plain `class` (which make no fixture): under
/// an `if` or a `try`, by assignment (`calc = pytest.fixture(_calc, name="calc")`), by import, by a
/// star import of a module that is neither the standard library, pytest nor the solution (whose
/// exports the evaluator checks). pytest takes the test module's own fixture of a name (any
/// attribute of the module that is one) over a conftest's; a conftest fixture of such a name may
/// not be the one the test gets.
struct FileBindings {
    /// Each name, and the words for how the file binds it.
    names: Vec<(String, String)>,
    /// A star import that may bind any name: where it is, in words.
    star: Option<String>,
}

impl FileBindings {
    fn of(body: &[Stmt], map: &SourceMap, scope: &ModuleScope) -> Self {
        let mut names = Vec::new();
        let mut star = None;
        for stmt in body {
            let plain = match stmt {
                Stmt::FunctionDef(f) => {
                    f.decorator_list.is_empty() || scope.fixture_functions.contains(f.name.as_str())
                }
                Stmt::ClassDef(c) => c.decorator_list.is_empty(),
                _ => false,
            };
            if plain {
                continue;
            }
            let line = map.line(stmt.range().start());
            let words = |what: &str| {
                format!(
                    "binds {what} on line {line} (`{}`)",
                    map.snippet(stmt.range())
                )
            };
            let mut bound = crate::module::BoundNames::default();
            ruff_python_ast::visitor::Visitor::visit_stmt(&mut bound, stmt);
            for name in bound.names {
                if name != "*" {
                    let w = words(&format!("`{name}`"));
                    names.push((name, w));
                }
            }
            for_each_stmt(stmt, Scope::Own, |s| {
                if let Stmt::ImportFrom(from) = s {
                    let module = from.module.as_ref().map_or("", |m| m.as_str());
                    let top = module.split('.').next().unwrap_or(module);
                    let known = from.level == 0
                        && (crate::stdlib::is_stdlib(module)
                            || matches!(top, "pytest" | "_pytest")
                            || scope.is_solution_package(module));
                    if !known && from.names.iter().any(|a| a.name.as_str() == "*") {
                        star.get_or_insert_with(|| {
                            format!(
                                "the star import on line {line} (`{}`)",
                                map.snippet(stmt.range())
                            )
                        });
                    }
                }
            });
            // `pytest.fixture(f, name="calc")`, `@pytest.fixture(name="calc")`: registered as `calc`.
            crate::walk::for_each_expr(stmt, Scope::All, |e| {
                if let Expr::Call(call) = e {
                    if scope.pytest_path(&call.func).as_deref() == Some("pytest.fixture") {
                        for k in call.arguments.keywords.iter() {
                            if let (Some(arg), Expr::StringLiteral(v)) = (&k.arg, &k.value) {
                                if arg.as_str() == "name" {
                                    let name = v.value.to_str().to_string();
                                    let w = words(&format!("a fixture `{name}`"));
                                    names.push((name, w));
                                }
                            }
                        }
                    }
                }
            });
        }
        FileBindings { names, star }
    }

    /// How the file may bind `name`, in words, if it does.
    fn of_name(&self, name: &str) -> Option<String> {
        self.names
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, w)| w.clone())
            .or_else(|| {
                self.star
                    .as_ref()
                    .map(|star| format!("may bind `{name}` by {star}"))
            })
    }
}

/// pytest's own `doctest_namespace` fixture (`_pytest.doctest`): a `dict` that pytest hands to
/// doctests as their globals. Only doctests read it; the extractor extracts test functions only.
const DOCTEST_NAMESPACE: &str = "doctest_namespace";

/// Autouse fixtures of a conftest that are inert for every test the extractor extracts: they only
/// store values into pytest's `doctest_namespace`. The proof, for a fixture to be listed:
/// - it is `@pytest.fixture(autouse=True)` (no other decorator, no `params=`), a plain `def`;
/// - its one parameter is `doctest_namespace`, which nothing overrides (the caller checks the test
///   file and every conftest), so it is pytest's fixture: a fresh `dict` per session, created by
///   pytest itself, which runs no user code;
/// - its body (after a docstring) is only `doctest_namespace["<literal>"] = value`: storing under a
///   string key into a `dict` runs no user code (a `str` hashes and compares by builtins) and
///   cannot raise; there is no `yield`, so no teardown;
/// - each `value` is a literal, a name the conftest binds at its top level (an import, a `def`, a
///   `class`, an assignment; never deleted nor declared `global`), whose read cannot raise once the
///   conftest imported, or an attribute chain on a module it imports at its top level
///   (`semver.version.Version`): a module's attributes are entries of its `__dict__`, read without
///   running code of the module's. The one thing this does not prove is that such an attribute
///   exists; if it did not, the fixture would error every test the conftest governs, a suite that
///   cannot pass at all.
///
/// Nothing a test (or the solution) reads changes, and the fixture cannot fail: it is inert.
fn doctest_only_fixtures(body: &[Stmt], inner: &ModuleScope) -> Vec<String> {
    let names = TopLevelNames::of(body);
    body.iter()
        .filter_map(|stmt| match stmt {
            Stmt::FunctionDef(f)
                if is_autouse_doctest_fixture(f, inner)
                    && only_stores_into_doctest(&f.body, &names) =>
            {
                Some(f.name.to_string())
            }
            _ => None,
        })
        .collect()
}

/// `@pytest.fixture(autouse=True)` alone on a plain `def f(doctest_namespace)`.
fn is_autouse_doctest_fixture(f: &ast::StmtFunctionDef, inner: &ModuleScope) -> bool {
    let [decorator] = f.decorator_list.as_slice() else {
        return false;
    };
    let Expr::Call(call) = &decorator.expression else {
        return false;
    };
    let autouse_only = call.arguments.args.is_empty()
        && call.arguments.keywords.iter().all(|k| {
            k.arg.as_ref().is_some_and(|a| a.as_str() == "autouse")
                && matches!(&k.value, Expr::BooleanLiteral(b) if b.value)
        });
    let one_param = f.parameters.posonlyargs.is_empty()
        && f.parameters.kwonlyargs.is_empty()
        && f.parameters.vararg.is_none()
        && f.parameters.kwarg.is_none()
        && matches!(f.parameters.args.as_slice(),
            [p] if p.parameter.name.as_str() == DOCTEST_NAMESPACE && p.default.is_none());
    autouse_only
        && one_param
        && !f.is_async
        && f.type_params.is_none()
        && inner.pytest_path(&decorator.expression).as_deref() == Some("pytest.fixture")
}

/// A body (after a docstring) of only `doctest_namespace["<literal>"] = value` and `pass`, each
/// value one whose read cannot run code or fail.
fn only_stores_into_doctest(body: &[Stmt], names: &TopLevelNames) -> bool {
    let mut statements = body;
    if let Some(Stmt::Expr(e)) = statements.first() {
        if matches!(e.value.as_ref(), Expr::StringLiteral(_)) {
            statements = &statements[1..];
        }
    }
    statements.iter().all(|s| match s {
        Stmt::Assign(a) => {
            matches!(a.targets.as_slice(), [Expr::Subscript(t)]
                if matches!(t.value.as_ref(), Expr::Name(n) if n.id.as_str() == DOCTEST_NAMESPACE)
                    && matches!(t.slice.as_ref(), Expr::StringLiteral(_)))
                && names.value_ok(&a.value)
        }
        Stmt::Pass(_) => true,
        _ => false,
    })
}

/// The names a conftest binds at its top level, which of them are modules it imports, and the
/// names anything in it deletes or declares `global` (any of which may be unbound or rebound).
struct TopLevelNames {
    bound: Vec<String>,
    modules: Vec<String>,
    unbound: Vec<String>,
}

impl TopLevelNames {
    fn of(body: &[Stmt]) -> Self {
        let mut unbound = Vec::new();
        for_each_stmt(body, Scope::All, |stmt| match stmt {
            Stmt::Global(g) => unbound.extend(g.names.iter().map(|n| n.to_string())),
            Stmt::Delete(d) => {
                for t in &d.targets {
                    if let Expr::Name(n) = t {
                        unbound.push(n.id.to_string());
                    }
                }
            }
            _ => {}
        });
        let mut bound: Vec<String> = Vec::new();
        let mut modules: Vec<String> = Vec::new();
        for stmt in body {
            match stmt {
                Stmt::Import(i) => {
                    for a in &i.names {
                        let name = match &a.asname {
                            Some(n) => n.to_string(),
                            None => a.name.split('.').next().unwrap_or_default().to_string(),
                        };
                        modules.push(name.clone());
                        bound.push(name);
                    }
                }
                Stmt::ImportFrom(i) => bound.extend(
                    i.names
                        .iter()
                        .filter(|a| a.name.as_str() != "*")
                        .map(|a| a.asname.as_ref().unwrap_or(&a.name).to_string()),
                ),
                Stmt::FunctionDef(f) => bound.push(f.name.to_string()),
                Stmt::ClassDef(c) => bound.push(c.name.to_string()),
                Stmt::Assign(a) => {
                    for t in &a.targets {
                        if let Expr::Name(n) = t {
                            bound.push(n.id.to_string());
                        }
                    }
                }
                _ => {}
            }
        }
        // A module name rebound by anything but an import is not a module for certain.
        modules.retain(|m| !body.iter().any(|s| rebinds_otherwise(s, m)));
        TopLevelNames {
            bound,
            modules,
            unbound,
        }
    }

    /// Bound at the top level and never deleted nor declared `global`: its read cannot fail.
    fn safe(&self, n: &str) -> bool {
        self.bound.iter().any(|b| b == n) && !self.unbound.iter().any(|u| u == n)
    }

    fn is_module(&self, n: &str) -> bool {
        self.safe(n) && self.modules.iter().any(|m| m == n)
    }

    /// `module.a.b`: attributes read from a module's `__dict__`.
    fn module_chain(&self, e: &Expr) -> bool {
        match e {
            Expr::Name(n) => self.is_module(n.id.as_str()),
            Expr::Attribute(a) => self.module_chain(&a.value),
            _ => false,
        }
    }

    /// A value whose read runs no code: a literal, a safe name, an attribute chain on a module.
    fn value_ok(&self, e: &Expr) -> bool {
        match e {
            Expr::StringLiteral(_)
            | Expr::BytesLiteral(_)
            | Expr::NumberLiteral(_)
            | Expr::BooleanLiteral(_)
            | Expr::NoneLiteral(_) => true,
            Expr::Name(n) => self.safe(n.id.as_str()),
            Expr::Attribute(a) => self.module_chain(&a.value),
            _ => false,
        }
    }
}

/// Whether a top-level statement binds `name` other than by `import name`.
fn rebinds_otherwise(stmt: &Stmt, name: &str) -> bool {
    match stmt {
        Stmt::FunctionDef(f) => f.name.as_str() == name,
        Stmt::ClassDef(c) => c.name.as_str() == name,
        Stmt::Assign(a) => a
            .targets
            .iter()
            .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name)),
        Stmt::ImportFrom(i) => i
            .names
            .iter()
            .any(|a| a.asname.as_ref().unwrap_or(&a.name).as_str() == name),
        _ => false,
    }
}

/// Whether the test file or any conftest defines a fixture that takes the place of pytest's
/// `doctest_namespace` (by its function name or by `name=`).
fn doctest_namespace_overridden(scope: &ModuleScope, conftests: &[Conftest]) -> bool {
    scope.fixtures.contains_key(DOCTEST_NAMESPACE)
        || conftests.iter().any(|c| {
            let Ok(parsed) = parse_module(&c.source) else {
                return false;
            };
            parsed.suite().iter().any(|s| match s {
                Stmt::FunctionDef(f) => {
                    f.name.as_str() == DOCTEST_NAMESPACE
                        || f.decorator_list.iter().any(|d| {
                            matches!(&d.expression, Expr::Call(c) if c.arguments.keywords.iter().any(|k| {
                                k.arg.as_ref().is_some_and(|a| a.as_str() == "name")
                                    && matches!(&k.value, Expr::StringLiteral(v) if v.value.to_str() == DOCTEST_NAMESPACE)
                            }))
                        })
                }
                _ => false,
            })
        })
}

fn fixture_line(body: &[Stmt], name: &str, map: &SourceMap) -> u32 {
    body.iter()
        .find_map(|s| match s {
            Stmt::FunctionDef(f) if f.name.as_str() == name => Some(map.line(f.range.start())),
            _ => None,
        })
        .unwrap_or(1)
}

/// The names of the `import` bindings that mirror a conftest's imports: `_bx_ci<N>_<i>` (N the
/// conftest's place, i the import's). No conftest fixture's binding (`_bx_c<N>_<name>`) has this
/// form. The evaluator makes these imports whether or not a check reads them.
pub const CONFTEST_IMPORT_PREFIX: &str = "_bx_ci";

/// What a conftest's module-level import that may fail asks of the extraction.
enum MayFail {
    /// Absolute imports (`import M`, `from M import A`): each `(M, A)`, which the evaluator makes
    /// too, so that a check errors when the import fails.
    Mirror(Vec<(String, Option<String>)>),
    /// A relative import, which the evaluator cannot make: every check is dropped.
    Drop(Reason),
}

/// A module-level import of the conftest that may fail: of a module that is neither the standard
/// library, pytest, nor the solution (a plugin, a third-party package, a neighbour). pytest imports
/// the conftest before it collects the test file; when the import fails it stops ("ImportError
/// while loading conftest") and runs no test.
fn import_may_fail(stmt: &Stmt, map: &SourceMap, scope: &ModuleScope) -> Option<MayFail> {
    let known = |module: &str| {
        let top = module.split('.').next().unwrap_or(module);
        crate::stdlib::is_stdlib(module)
            || matches!(top, "pytest" | "_pytest")
            || scope.is_solution_package(module)
    };
    match stmt {
        Stmt::Import(import) => {
            let imports: Vec<(String, Option<String>)> = import
                .names
                .iter()
                .map(|alias| alias.name.to_string())
                .filter(|m| !known(m))
                .map(|m| (m, None))
                .collect();
            (!imports.is_empty()).then_some(MayFail::Mirror(imports))
        }
        Stmt::ImportFrom(from) if from.level == 0 => {
            let module = from.module.as_ref().map_or("", |m| m.as_str());
            if known(module) {
                return None;
            }
            Some(MayFail::Mirror(
                from.names
                    .iter()
                    .filter(|alias| alias.name.as_str() != "*")
                    .map(|alias| (module.to_string(), Some(alias.name.to_string())))
                    .chain(
                        from.names
                            .iter()
                            .any(|alias| alias.name.as_str() == "*")
                            .then(|| (module.to_string(), None)),
                    )
                    .collect(),
            ))
        }
        Stmt::ImportFrom(from) => {
            let module = format!(
                "{}{}",
                ".".repeat(from.level as usize),
                from.module.as_ref().map_or("", |m| m.as_str())
            );
            let line = map.line(stmt.range().start());
            Some(MayFail::Drop(ModuleCode::ConftestImportMayFail.because(format!(
                "imports `{module}` (line {line}), a relative import the evaluator cannot make: when it fails, pytest stops before it collects the test file and runs no test"
            ))))
        }
        _ => None,
    }
}

/// A hook that runs around tests (`pytest_runtest_setup`, `pytest_collection_modifyitems`, …) or
/// a `pytest_plugins` declaration: either may skip, reorder or change any test.
fn hook_or_plugin(stmt: &Stmt, map: &SourceMap) -> Option<Reason> {
    let line = |r: TextRange| map.line(r.start());
    match stmt {
        Stmt::FunctionDef(f)
            if f.name.starts_with("pytest_") && !DECLARING_HOOKS.contains(&f.name.as_str()) =>
        {
            if f.name.as_str() == "pytest_configure" && only_registers_markers(&f.body) {
                return None;
            }
            Some(Config::ConftestHook.because(format!(
                "defines the hook `{}` (line {}), which pytest runs around the tests and which may skip or change them",
                f.name,
                line(f.range)
            )))
        }
        Stmt::Assign(a)
            if a.targets.iter().any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == "pytest_plugins")) =>
        {
            Some(Config::ConftestPlugins.because(format!(
                "loads plugins with `pytest_plugins` (line {}), which may run code around every test",
                line(stmt.range())
            )))
        }
        _ => None,
    }
}

/// `def pytest_configure(config): config.addinivalue_line("markers", "...")` only declares marks.
fn only_registers_markers(body: &[Stmt]) -> bool {
    body.iter().all(|s| match s {
        // Only the `markers` key: `filterwarnings` or `usefixtures` lines change every test.
        Stmt::Expr(e) => matches!(e.value.as_ref(), Expr::Call(c)
            if matches!(c.func.as_ref(), Expr::Attribute(a) if a.attr.as_str() == "addinivalue_line")
                && matches!(c.arguments.args.first(), Some(Expr::StringLiteral(k)) if k.value.to_str() == "markers")),
        Stmt::Pass(_) => true,
        _ => false,
    })
}
