//! The file's fixtures as far as parametrization goes: their scope, `params`, `autouse`, whether
//! they return `request.param`; a test's fixture closure sorted by scope; a parametrized fixture's
//! cases, and its body replayed for each param.

use crate::sort::SharedSort as _;
use rustc_hash::FxHashMap as HashMap;

use ruff_python_ast::{self as ast, Expr, Stmt};

use crate::module::{ConftestFixtureDef, ModuleScope};
use crate::pytest::fixture_body::{self, Outcome};
use crate::pytest::value::{Place, PyValue};
use crate::rules::Collection;

use super::{Collector, ParamSet, Parametrize};
use crate::pytest::ids::Id;

/// A fixture the file defines, as far as parametrization goes.
#[derive(Clone)]
pub(super) struct FixtureDef<'a> {
    pub(super) func: &'a ast::StmtFunctionDef,
    /// The fixture's arguments (other fixtures), without `self`.
    pub(super) argnames: Vec<String>,
    /// pytest's scope order: session 4 … function 0.
    pub(super) scope: Result<u8, String>,
    pub(super) autouse: bool,
    pub(super) params: Option<&'a Expr>,
    pub(super) ids: Option<&'a Expr>,
    /// Where `params` and `ids` are evaluated.
    pub(super) place: Place<'a>,
    /// `return request.param`: the fixture's value is its param.
    pub(super) returns_param: bool,
}

#[derive(Clone, Default)]
pub(super) struct Fixtures<'a> {
    pub(super) by_name: HashMap<String, FixtureDef<'a>>,
    /// Autouse fixture names, outermost first (the conftests' first).
    pub(super) autouse: Vec<String>,
    /// The conftests' fixtures (`ModuleScope::conftest_defs`), which the file's of a name override.
    pub(super) conftest: Vec<(String, ConftestFixtureDef)>,
}

impl<'a> Fixtures<'a> {
    /// The conftest's fixture of a name, when the file defines none.
    pub(super) fn conftest_def(&self, name: &str) -> Option<&ConftestFixtureDef> {
        if self.by_name.contains_key(name) {
            return None;
        }
        self.conftest
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, d)| d)
    }

    /// A fixture's arguments, wherever it is defined.
    fn argnames_of(&self, name: &str) -> Option<&[String]> {
        match self.by_name.get(name) {
            Some(def) => Some(&def.argnames),
            None => self.conftest_def(name).map(|d| &d.argnames[..]),
        }
    }

    /// A fixture's scope (pytest's order), wherever it is defined; function scope for one the
    /// extractor does not know.
    pub(super) fn scope_of(&self, name: &str) -> Result<u8, String> {
        match self.by_name.get(name) {
            Some(def) => def.scope.clone(),
            // A conftest's fixture without params whose scope is computed changes no id: sorted
            // first, as the widest, so that a fixture of the file replayed with its params does
            // not count as running before it.
            None => self
                .conftest_def(name)
                .map_or(Ok(0), |d| match (&d.scope, &d.params) {
                    (Err(_), None) => Ok(4),
                    (scope, _) => scope.clone(),
                }),
        }
    }

    /// The fixtures of a module or class body, over those of the enclosing scopes.
    pub(super) fn of(
        body: &'a [Stmt],
        scope: &ModuleScope<'a>,
        class: Option<&'a [Stmt]>,
        outer: Option<&Fixtures<'a>>,
    ) -> Self {
        let mut out = outer.cloned().unwrap_or_else(|| Fixtures {
            autouse: scope
                .conftest_defs
                .iter()
                .filter(|(_, d)| d.autouse)
                .map(|(n, _)| n.clone())
                .collect(),
            conftest: scope.conftest_defs.clone(),
            ..Fixtures::default()
        });
        for stmt in body {
            let Stmt::FunctionDef(f) = stmt else { continue };
            let Some(decorator) = f
                .decorator_list
                .iter()
                .find(|d| scope.pytest_path(&d.expression).as_deref() == Some("pytest.fixture"))
            else {
                continue;
            };
            let mut def = FixtureDef {
                func: f,
                argnames: f
                    .parameters
                    .iter_non_variadic_params()
                    .filter(|p| p.default.is_none())
                    .map(|p| p.parameter.name.to_string())
                    .skip(usize::from(class.is_some()))
                    .collect(),
                scope: Ok(0),
                autouse: false,
                params: None,
                ids: None,
                place: Place {
                    class,
                    before: f.range.start(),
                },
                returns_param: false,
            };
            let mut name = f.name.to_string();
            if let Expr::Call(call) = &decorator.expression {
                for kw in call.arguments.keywords.iter() {
                    let Some(arg) = kw.arg.as_ref() else { continue };
                    match arg.as_str() {
                        "autouse" => {
                            def.autouse = matches!(&kw.value, Expr::BooleanLiteral(b) if b.value)
                        }
                        "scope" => {
                            def.scope = match &kw.value {
                                Expr::StringLiteral(s) => {
                                    let s = s.value.to_str();
                                    scope_order(s)
                                        .ok_or_else(|| format!("an unknown fixture scope `{s}`"))
                                }
                                _ => Err(format!("the scope of fixture `{}` is computed", f.name)),
                            }
                        }
                        "params" => def.params = Some(&kw.value),
                        "ids" => def.ids = Some(&kw.value),
                        "name" => {
                            if let Expr::StringLiteral(s) = &kw.value {
                                name = s.value.to_str().to_string();
                            }
                        }
                        _ => {}
                    }
                }
                if let Some(Expr::StringLiteral(_)) = call.arguments.args.first() {
                    // `@pytest.fixture("module")` is an error in pytest 9; leave it to pytest.
                }
            }
            let request_only = def.argnames.len() == 1 && def.argnames[0] == "request";
            def.returns_param = request_only && returns_request_param(&f.body);
            if def.autouse && !out.autouse.contains(&name) {
                out.autouse.push(name.clone());
            }
            out.by_name.insert(name, def);
        }
        out
    }
}

/// pytest's scope order: session 4 … function 0.
pub(super) fn scope_order(scope: &str) -> Option<u8> {
    match scope {
        "function" => Some(0),
        "class" => Some(1),
        "module" => Some(2),
        "package" => Some(3),
        "session" => Some(4),
        _ => None,
    }
}

/// The fixture's value is its param, the very object: `return request.param` (or `yield
/// request.param` as its last statement), after an optional docstring and plain assignments of
/// `request.param` (or of a name already holding it) to names (`param = request.param`).
fn returns_request_param(body: &[Stmt]) -> bool {
    let body = match body.first() {
        Some(Stmt::Expr(e)) if matches!(e.value.as_ref(), Expr::StringLiteral(_)) => &body[1..],
        _ => body,
    };
    let Some((last, steps)) = body.split_last() else {
        return false;
    };
    let mut aliases: Vec<&str> = Vec::new();
    for step in steps {
        let Some((target, value)) = plain_assignment(step) else {
            return false;
        };
        if target == "request" || !is_param(value, &aliases) {
            return false;
        }
        aliases.push(target);
    }
    match last {
        Stmt::Return(r) => r.value.as_deref().is_some_and(|v| is_param(v, &aliases)),
        Stmt::Expr(e) => {
            matches!(e.value.as_ref(), Expr::Yield(y) if y.value.as_deref().is_some_and(|v| is_param(v, &aliases)))
        }
        _ => false,
    }
}

/// `name = value` with one name target.
fn plain_assignment(stmt: &Stmt) -> Option<(&str, &Expr)> {
    match stmt {
        Stmt::Assign(a) => match a.targets.as_slice() {
            [Expr::Name(n)] => Some((n.id.as_str(), &a.value)),
            _ => None,
        },
        _ => None,
    }
}

/// `request.param`, or a name that holds it.
fn is_param(e: &Expr, aliases: &[&str]) -> bool {
    match e {
        Expr::Attribute(a) => {
            a.attr.as_str() == "param"
                && matches!(a.value.as_ref(), Expr::Name(n) if n.id.as_str() == "request")
        }
        Expr::Name(n) => aliases.contains(&n.id.as_str()),
        _ => false,
    }
}

impl<'s, 'a> Collector<'s, 'a> {
    /// Whether the file tells every parametrization of the closure: a fixture from a conftest.py
    /// with `params=`, or a `pytest_generate_tests` hook, multiplies the test into cases whose ids
    /// the file alone does not tell.
    pub(super) fn closure_is_known(
        &self,
        closure: &[String],
        fixtures: &Fixtures<'a>,
        generate: Option<u32>,
    ) -> Result<(), String> {
        if let Some((name, def, why)) = closure.iter().find_map(|n| {
            let def = fixtures.conftest_def(n)?;
            match &def.params {
                Some(Err((why, None))) => Some((n, def, why)),
                _ => None,
            }
        }) {
            return Err(format!(
                "the fixture `{name}` from {} parametrizes it, and {why}",
                def.label
            ));
        }
        if let Some(line) = generate {
            if !closure.is_empty() {
                return Err(format!(
                    "`pytest_generate_tests` (line {line}) may parametrize it, which the extractor does not run"
                ));
            }
        }
        Ok(())
    }

    /// The parametrization a fixture's `params=` makes, if it has them.
    pub(super) fn fixture_parametrize(
        &self,
        name: &str,
        fixtures: &Fixtures<'a>,
        argnames: &[String],
        first: bool,
    ) -> Result<Option<Parametrize<'a>>, String> {
        let Some(def) = fixtures.by_name.get(name) else {
            return Ok(fixtures
                .conftest_def(name)
                .and_then(|def| conftest_parametrize(name, def)));
        };
        let Some(params) = def.params else {
            return Ok(None);
        };
        let line = self.map.line(def.func.range.start());
        let mut p = self.parameter_sets(
            vec![name.to_string()],
            params,
            def.ids,
            def.place,
            line,
            Some(def.func.name.as_str()),
        )?;
        p.indirect = vec![true];
        p.scope = def.scope.clone().unwrap_or(4);
        let requested = argnames.iter().any(|a| a == name);
        if def.returns_param && requested {
            p.pass_through = vec![true];
        } else if requested && first && def.argnames == ["request"] {
            for set in &mut p.sets {
                self.replay_fixture(def, line, set, 0);
            }
        }
        Ok(Some(p))
    }

    /// The fixture's body run for the case's param (`pytest::fixture_body`): its value as Python
    /// source, or why pytest skips the case or the extractor cannot tell its value.
    /// Whether the case has a value or a reason from it (else the fixture's body is not one this
    /// replays, or the param is computed). `i`: which name of the case goes through the fixture.
    fn replay_fixture(
        &self,
        def: &FixtureDef<'a>,
        line: u32,
        set: &mut ParamSet<'a>,
        i: usize,
    ) -> bool {
        let Some(expr) = set.exprs.as_ref().and_then(|e| e.get(i).copied()) else {
            return false;
        };
        let param = self.eval.eval(expr, def.place);
        if matches!(param, PyValue::Unknown(_)) {
            return false;
        }
        let outcome = fixture_body::run(
            &def.func.body,
            &param,
            self.scope,
            &self.eval,
            def.place,
            self.map,
        );
        let name = &def.func.name;
        match outcome {
            Some(Outcome::Value(text)) => set.replay.push((i, text)),
            // The fixture body's own reason keeps its rule (`pytest::fixture_body` names it; a
            // bare text is unsorted until it does).
            Some(Outcome::Skip(why)) => {
                set.not_run.get_or_insert(
                    why.map(|why| format!("fixture `{name}` (line {line}) skips this case: {why}")),
                );
            }
            Some(Outcome::Undecided(why)) => {
                set.not_run.get_or_insert(
                    why.map(|why| format!("fixture `{name}` (line {line}) with this param: {why}")),
                );
            }
            None => return false,
        }
        true
    }

    /// `indirect` names of a parametrize mark: handed on when their fixture returns its param,
    /// replayed with each value when the fixture's body is one `pytest::fixture_body` runs and no
    /// fixture that may run code comes before it (`first`), else the cases cannot be replayed.
    pub(super) fn route_indirect(
        &self,
        p: &mut Parametrize<'a>,
        fixtures: &Fixtures<'a>,
        first: &[&str],
    ) {
        let map = self.map;
        for (i, name) in p.names.iter().enumerate() {
            if !p.indirect[i] {
                continue;
            }
            match fixtures.by_name.get(name) {
                Some(def) if def.returns_param => p.pass_through[i] = true,
                Some(def) => {
                    let line = map.line(def.func.range.start());
                    let why = Collection::FixtureParamNotReplayed.because(format!(
                        "parametrize on line {}: `indirect` sends `{name}` through the fixture `{name}` (line {line}), which the extractor does not replay with each value",
                        p.line,
                    ));
                    let replayable = def.argnames == ["request"] && first.contains(&name.as_str());
                    for set in &mut p.sets {
                        if !(replayable && self.replay_fixture(def, line, set, i)) {
                            set.not_run.get_or_insert(why.clone());
                        }
                    }
                }
                None => {
                    let why = Collection::IndirectFixtureNotInFile.because(format!(
                        "parametrize on line {}: `indirect` sends `{name}` through a fixture not defined in this file",
                        p.line
                    ));
                    p.not_run.get_or_insert(why);
                }
            }
        }
    }
}

/// The test function's arguments pytest fills (no defaults), without `self`.
pub(super) fn test_argnames(f: &ast::StmtFunctionDef, in_class: bool) -> Vec<String> {
    f.parameters
        .iter_non_variadic_params()
        .filter(|p| p.default.is_none())
        .map(|p| p.parameter.name.to_string())
        .skip(usize::from(in_class))
        .collect()
}

/// The closure's names sorted by fixture scope, widest first (stable).
pub(super) fn by_scope<'c>(
    closure: &'c [String],
    fixtures: &Fixtures,
) -> Result<Vec<&'c String>, String> {
    let mut sorted: Vec<(u8, &String)> = Vec::new();
    for name in closure {
        let scope = fixtures.scope_of(name)?;
        sorted.push((scope, name));
    }
    sorted.sort_shared_by_key(|(scope, _)| std::cmp::Reverse(*scope));
    Ok(sorted.into_iter().map(|(_, n)| n).collect())
}

/// The fixture closure of a test (`getfixtureclosure`): names in request order, depth first.
pub(super) fn close_over(
    name: &str,
    fixtures: &Fixtures,
    direct: &[&str],
    closure: &mut Vec<String>,
    depth: usize,
) {
    if closure.iter().any(|n| n == name) || depth > 64 {
        return;
    }
    closure.push(name.to_string());
    if direct.contains(&name) {
        return;
    }
    if let Some(argnames) = fixtures.argnames_of(name) {
        for dep in argnames {
            if dep != name {
                close_over(dep, fixtures, direct, closure, depth + 1);
            }
        }
    }
}

/// The parametrization a conftest fixture's `params=` makes (its ids known): one case per param,
/// none of which the extractor replays (the fixture runs in the conftest, for each param).
fn conftest_parametrize<'a>(name: &str, def: &ConftestFixtureDef) -> Option<Parametrize<'a>> {
    let (sets, unknown_ids) = match def.params.as_ref()? {
        Ok(sets) => (sets.clone(), None),
        // Their number is known: as many cases, counted, not listed.
        Err((why, Some(n))) => (vec![(Some(String::new()), None); *n], Some(why.clone())),
        Err((_, None)) => return None,
    };
    let why = crate::rules::Fixtures::FixtureFromConftest.because(format!(
        "`{name}`, a parametrized fixture from {}, which the extractor does not replay for each param, runs for this case, and its setup may change what the assertion reads",
        def.label
    ));
    let sets: Vec<ParamSet<'a>> = sets
        .into_iter()
        .map(|(id, not_run)| ParamSet {
            exprs: None,
            range: Default::default(),
            id: match id {
                Some(id) => Id::Shown(id),
                None => Id::Hidden,
            },
            not_run,
            replay: Vec::new(),
        })
        .collect();
    let mut p = Parametrize::new(vec![String::new()], sets, 0);
    p.names.clear();
    p.indirect.clear();
    p.pass_through.clear();
    p.not_run = Some(why);
    p.scope = def.scope.clone().unwrap_or(4);
    p.unknown_ids = unknown_ids.map(|why| {
        format!(
            "the fixture `{}` from {} parametrizes it, and {why}",
            name, def.label
        )
    });
    Some(p)
}
