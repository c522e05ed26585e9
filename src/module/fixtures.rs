//! Fixtures defined in the file (`@pytest.fixture`), and fixture functions a later statement binds
//! again.

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::Ranged;

use crate::rules::{Fixtures, Reason};
use crate::source::SourceMap;

use super::walk::BoundNames;
use super::{kept, Fixture, Global, ModuleScope};

impl<'a> ModuleScope<'a> {
    /// pytest finds fixtures among the module's attributes once it is imported (`dir()` order, the
    /// last registration of a name winning): a fixture function whose name a later statement binds
    /// again is gone, or replaced by what that statement binds. Such a name is not a fixture the
    /// extractor can replay.
    pub(super) fn unregister_rebound_fixtures(&mut self, stmt: &'a Stmt, line: u32) {
        let mut bound = BoundNames::default();
        bound.visit_stmt(stmt);
        for name in bound.names {
            if self.fixture_functions.contains(&name) {
                self.fixtures.insert(
                    name.clone(),
                    Fixture::Unsupported {
                        why: kept(Fixtures::FixtureRebound.because(format!("fixture `{name}` is bound again on line {line}, and pytest takes what the module holds at the end"))),
                    },
                );
            }
        }
    }

    /// `def f(...)`: a helper, and maybe a fixture (an autouse one is a barrier to every test).
    pub(super) fn bind_function(
        &mut self,
        f: &'a ast::StmtFunctionDef,
        line: u32,
        map: &SourceMap,
    ) {
        let name = f.name.to_string();
        if let Some((fixture, autouse)) = self.fixture_of(f, map) {
            if let Some(autouse) = autouse {
                self.global_barriers.push((line, kept(autouse)));
            }
            // `@pytest.fixture(name="x")`: registered as `x`, and pytest picks among fixtures of
            // one name by attribute order, not by where they are defined; neither name is one the
            // extractor can replay.
            if let Some(alias) = fixture_name_option(f) {
                let why = kept(Fixtures::FixtureRegisteredUnderName.because(format!(
                    "fixture `{}` (line {line}) is registered under `name=`, which pytest resolves among the module's attributes",
                    f.name
                )));
                if let Some(alias) = alias {
                    self.fixtures
                        .insert(alias, Fixture::Unsupported { why: why.clone() });
                }
                self.fixtures
                    .insert(name.clone(), Fixture::Unsupported { why });
            } else {
                self.fixtures.insert(name.clone(), fixture);
            }
            self.fixture_functions.insert(name.clone());
        }
        self.globals.insert(
            name,
            Global::Helper {
                kind: "function",
                line,
                def: f.decorator_list.is_empty().then_some(f),
            },
        );
    }

    /// `(fixture, Some(why))` when the fixture is autouse.
    fn fixture_of(
        &self,
        f: &'a ast::StmtFunctionDef,
        map: &SourceMap,
    ) -> Option<(Fixture<'a>, Option<Reason>)> {
        let decorator = f
            .decorator_list
            .iter()
            .find(|d| self.pytest_path(&d.expression).as_deref() == Some("pytest.fixture"))?;
        let line = map.line(f.range.start());
        let (autouse, unsupported) = fixture_options(f, &decorator.expression, line, map);
        if let Some(why) = unsupported {
            return Some((Fixture::Unsupported { why: kept(why) }, autouse));
        }
        let fixture = match fixture_value(f) {
            Some(expr) if self.is_solution_module_expr(expr) => Fixture::SolutionModule,
            Some(expr) => Fixture::Value {
                expr,
                params: requested(f),
                defaults: f
                    .parameters
                    .iter_non_variadic_params()
                    .filter_map(|p| Some((p.parameter.name.to_string(), p.default.as_deref()?)))
                    .collect(),
                range: f.range,
            },
            None => Fixture::Unsupported {
                why: kept(Fixtures::FixtureDoesMoreThanReturn.because(format!(
                    "fixture `{}` (line {line}) does more than return a value",
                    f.name
                ))),
            },
        };
        Some((fixture, autouse))
    }
}

/// The fixtures a fixture function requests, as pytest's `getfuncargnames` reads its signature:
/// positional-or-keyword and keyword-only parameters without a default. A parameter with a default
/// is no request: pytest calls the function without it, so it keeps its default even where a
/// fixture of that name exists.
pub(crate) fn requested(f: &ast::StmtFunctionDef) -> Vec<String> {
    f.parameters
        .args
        .iter()
        .chain(f.parameters.kwonlyargs.iter())
        .filter(|p| p.default.is_none())
        .map(|p| p.parameter.name.to_string())
        .collect()
}

/// What `@pytest.fixture(...)`'s options say: why it runs before every test (`autouse=True`), and
/// why the extractor does not reproduce it (a wider scope, `params=`).
/// The `name=` of a `@pytest.fixture(...)` decorator: `Some(Some(x))` for a literal, `Some(None)`
/// for any other value, `None` without it.
fn fixture_name_option(f: &ast::StmtFunctionDef) -> Option<Option<String>> {
    f.decorator_list.iter().find_map(|d| match &d.expression {
        Expr::Call(call) => call
            .arguments
            .keywords
            .iter()
            .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == "name"))
            .map(|k| match &k.value {
                Expr::StringLiteral(s) => Some(s.value.to_str().to_string()),
                _ => None,
            }),
        _ => None,
    })
}

fn fixture_options(
    f: &ast::StmtFunctionDef,
    decorator: &Expr,
    line: u32,
    map: &SourceMap,
) -> (Option<Reason>, Option<Reason>) {
    let mut autouse = None;
    let mut unsupported: Option<Reason> = None;
    let Expr::Call(call) = decorator else {
        return (autouse, unsupported);
    };
    for kw in call.arguments.keywords.iter() {
        let Some(arg) = kw.arg.as_ref() else { continue };
        match arg.as_str() {
            "autouse" if matches!(&kw.value, Expr::BooleanLiteral(b) if b.value) => {
                autouse = Some(Fixtures::AutouseFixture.because(format!(
                    "the autouse fixture `{}` (line {line}) runs before every test",
                    f.name
                )));
            }
            "scope" if !matches!(&kw.value, Expr::StringLiteral(s) if s.value.to_str() == "function") =>
            {
                unsupported = Some(Fixtures::FixtureWiderScope.because(format!(
                    "fixture `{}` (line {line}) is shared across tests (scope={}), so a test may see it changed by another",
                    f.name,
                    map.text(kw.value.range())
                )));
            }
            "params" => {
                unsupported = Some(Fixtures::FixtureParametrized.because(format!(
                    "fixture `{}` (line {line}) is parametrized",
                    f.name
                )));
            }
            _ => {}
        }
    }
    (autouse, unsupported)
}

/// The value a fixture gives when its body (after a docstring) is only `return <expr>` or starts
/// with `yield <expr>`.
fn fixture_value(f: &ast::StmtFunctionDef) -> Option<&Expr> {
    let mut body: &[Stmt] = &f.body;
    if let Some(Stmt::Expr(e)) = body.first() {
        if matches!(e.value.as_ref(), Expr::StringLiteral(_)) {
            body = &body[1..];
        }
    }
    match body.first() {
        Some(Stmt::Return(r)) if body.len() == 1 => r.value.as_deref(),
        Some(Stmt::Expr(e)) => match e.value.as_ref() {
            Expr::Yield(y) => y.value.as_deref(),
            _ => None,
        },
        _ => None,
    }
}
