//! Expansion into cases: a test's parametrizations in pytest's order (parametrized fixtures, then
//! `parametrize` marks with `indirect` and `scope`), and every combination of them with its id.

use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;

use crate::pytest::ids::Id;
use crate::pytest::value::{Place, PyValue};
use crate::rules::Collection;

use super::fixtures::{by_scope, close_over, scope_order, test_argnames, Fixtures};
use super::marks::{Mark, MarksRead};
use super::{kept, Case, Collector, ParamSet, Parametrize};

/// Parametrize combinations expanded per test at most.
const MAX_CASES: usize = 10_000;

impl<'s, 'a> Collector<'s, 'a> {
    /// The cases of one test function, or why its ids cannot be known.
    pub(super) fn expand(
        &mut self,
        f: &'a ast::StmtFunctionDef,
        marks: &[Mark<'a>],
        base: &str,
        in_class: bool,
        fixtures: &Fixtures<'a>,
        generate: Option<u32>,
    ) -> Result<Vec<Case<'a>>, String> {
        let mut read = MarksRead::default();
        for mark in marks {
            self.read_mark(mark, fixtures, &mut read)?;
        }
        let argnames = test_argnames(f, in_class);
        let order = self.parametrizations(
            read.parametrizes,
            &read.usefixtures,
            &argnames,
            fixtures,
            generate,
        );
        let order = order.inspect_err(|why| {
            self.reorder.get_or_insert_with(|| {
                format!(
                    "pytest may reorder the file's tests around `{}`: {why}",
                    f.name
                )
            });
        })?;
        if let Some(p) = order.iter().find(|p| p.scope > 0) {
            self.reorder.get_or_insert_with(|| match p.line {
                // A conftest fixture's (`fixtures::conftest_parametrize`).
                0 => "pytest reorders the file's tests around a parametrized fixture of a conftest wider than function scope".to_string(),
                line => format!(
                    "pytest reorders the file's tests around the parametrization on line {line} (wider than function scope)"
                ),
            });
        }
        let first = Case {
            id: base.to_string(),
            func: f,
            is_method: in_class,
            unittest: false,
            unittest_setup: None,
            params: Vec::new(),
            param_ranges: Vec::new(),
            not_run: read.not_run.map(kept),
            parametrized: !order.is_empty(),
            setup: read.setup,
            class_fixtures: Vec::new(),
            fixture_values: Vec::new(),
        };
        let cases = combine(first, base, &order)?;
        if let Some(why) = order.iter().find_map(|p| p.unknown_ids.clone()) {
            self.unlisted_cases = Some(u32::try_from(cases.len()).unwrap_or(u32::MAX));
            return Err(why);
        }
        Ok(cases)
    }

    /// Every parametrization of a test in pytest's order: parametrized fixtures first (pytest's
    /// fixtures plugin generates them before the marks), in the order of the fixture closure
    /// sorted by scope, widest first; then the marks.
    fn parametrizations(
        &self,
        mut parametrizes: Vec<Parametrize<'a>>,
        usefixtures: &[String],
        argnames: &[String],
        fixtures: &Fixtures<'a>,
        generate: Option<u32>,
    ) -> Result<Vec<Parametrize<'a>>, String> {
        let direct: Vec<&str> = parametrizes
            .iter()
            .flat_map(|p| p.names.iter().zip(&p.indirect))
            .filter(|(_, indirect)| !**indirect)
            .map(|(n, _)| n.as_str())
            .collect();
        let mut closure: Vec<String> = Vec::new();
        for name in fixtures.autouse.iter().chain(usefixtures).chain(argnames) {
            close_over(name, fixtures, &direct, &mut closure, 0);
        }
        self.closure_is_known(&closure, fixtures, generate)?;
        let marked: Vec<&str> = parametrizes
            .iter()
            .flat_map(|p| p.names.iter().map(String::as_str))
            .collect();
        // A fixture that may run code (not a value handed on): one whose value is replayed must
        // come before any of them, in pytest's order and in the fold's (the test's arguments).
        let runs_code = |n: &str| {
            !direct.contains(&n)
                && !fixtures
                    .by_name
                    .get(n)
                    .is_some_and(|d| d.params.is_some() && d.returns_param)
        };
        let sorted = by_scope(&closure, fixtures)?;
        let first: Vec<&str> = sorted
            .iter()
            .enumerate()
            .filter(|(k, name)| {
                !sorted[..*k].iter().any(|n| runs_code(n))
                    && !argnames
                        .iter()
                        .take_while(|a| a != *name)
                        .any(|a| runs_code(a))
            })
            .map(|(_, name)| name.as_str())
            .collect();
        let mut order = Vec::new();
        for name in &sorted {
            if marked.contains(&name.as_str()) {
                continue;
            }
            let is_first = first.contains(&name.as_str());
            if let Some(p) = self.fixture_parametrize(name, fixtures, argnames, is_first)? {
                order.push(p);
            }
        }
        for p in &mut parametrizes {
            self.route_indirect(p, fixtures, &first);
        }
        order.extend(parametrizes);
        parametrized_once(&order)?;
        Ok(order)
    }

    pub(super) fn parse_parametrize(
        &self,
        call: &'a ast::ExprCall,
        place: Place<'a>,
        fixtures: &Fixtures<'a>,
    ) -> Result<Parametrize<'a>, String> {
        let line = self.map.line(call.range().start());
        let arg = |pos: usize, kw: &str| -> Option<&'a Expr> {
            call.arguments.args.get(pos).or_else(|| keyword(call, kw))
        };
        let fail = |why: &str| format!("parametrize on line {line}: {why}");
        if call
            .arguments
            .args
            .iter()
            .any(|a| matches!(a, Expr::Starred(_)))
            || call.arguments.keywords.iter().any(|k| k.arg.is_none())
        {
            return Err(fail("its arguments are unpacked with `*`"));
        }
        let names: Vec<String> = match arg(0, "argnames").map(|e| self.eval.eval(e, place)) {
            Some(PyValue::Str(s)) => s
                .split(',')
                .map(|n| n.trim().to_string())
                .filter(|n| !n.is_empty())
                .collect(),
            Some(PyValue::Tuple(v) | PyValue::List(v)) => {
                let mut names = Vec::new();
                for n in v {
                    match n {
                        PyValue::Str(s) => names.push(s),
                        _ => return Err(fail("argument names are not strings")),
                    }
                }
                names
            }
            Some(PyValue::Unknown(why)) => {
                return Err(fail(&format!("the argument names are computed ({why})")))
            }
            _ => return Err(fail("argument names are not strings")),
        };
        // A single name in a string: each value is one argument, not unpacked.
        let force_tuple = matches!(
            arg(0, "argnames").map(|e| self.eval.eval(e, place)),
            Some(PyValue::Str(_))
        ) && names.len() == 1;
        let Some(values) = arg(1, "argvalues") else {
            return Err(fail("it has no values"));
        };
        let mut p = self.parameter_sets_with(
            names,
            values,
            keyword(call, "ids"),
            place,
            line,
            None,
            force_tuple,
        )?;
        let (indirect, all_indirect) = self
            .indirect_names(call, place, &p.names)
            .ok_or_else(|| fail("`indirect` is computed"))?;
        p.scope = self.mark_scope(call, place, &p.names, all_indirect, fixtures);
        p.pass_through = vec![false; p.names.len()];
        p.indirect = indirect;
        Ok(p)
    }

    /// Which names of a parametrize mark go through their fixtures (`indirect=`), and whether pytest
    /// counts all of them as fixtures (a list must name as many as there are names); `None` when
    /// `indirect` is computed.
    fn indirect_names(
        &self,
        call: &'a ast::ExprCall,
        place: Place<'a>,
        names: &[String],
    ) -> Option<(Vec<bool>, bool)> {
        match keyword(call, "indirect").map(|e| self.eval.eval(e, place)) {
            None | Some(PyValue::Bool(false)) => Some((vec![false; names.len()], false)),
            Some(PyValue::Bool(true)) => Some((vec![true; names.len()], true)),
            Some(PyValue::Tuple(v) | PyValue::List(v)) => {
                let all = v.len() == names.len();
                let listed: Vec<String> = v
                    .into_iter()
                    .filter_map(|n| match n {
                        PyValue::Str(s) => Some(s),
                        _ => None,
                    })
                    .collect();
                Some((names.iter().map(|n| listed.contains(n)).collect(), all))
            }
            Some(_) => None,
        }
    }

    /// The scope of a parametrize mark (`_find_parametrized_scope`): its `scope=`, else the
    /// narrowest scope of its fixtures when every name is indirect, else function (0). A scope the
    /// extractor cannot tell counts as the widest, session (4).
    fn mark_scope(
        &self,
        call: &'a ast::ExprCall,
        place: Place<'a>,
        names: &[String],
        all_indirect: bool,
        fixtures: &Fixtures<'a>,
    ) -> u8 {
        if let Some(scope) = keyword(call, "scope") {
            return match self.eval.eval(scope, place) {
                PyValue::None => 0,
                PyValue::Str(s) => scope_order(&s).unwrap_or(4),
                _ => 4,
            };
        }
        if !all_indirect {
            return 0;
        }
        names
            .iter()
            .map(|n| match fixtures.by_name.get(n) {
                Some(def) => def.scope.clone().unwrap_or(4),
                None => fixtures
                    .conftest_def(n)
                    .map_or(4, |d| d.scope.clone().unwrap_or(4)),
            })
            .min()
            .unwrap_or(0)
    }
}

/// pytest refuses a test that parametrizes one name twice.
fn parametrized_once(order: &[Parametrize]) -> Result<(), String> {
    let mut seen: Vec<&str> = Vec::new();
    for p in order {
        for n in &p.names {
            if seen.contains(&n.as_str()) {
                return Err(format!(
                    "`{n}` is parametrized twice: pytest fails to collect it"
                ));
            }
            seen.push(n);
        }
    }
    Ok(())
}

/// The cases of every combination of the parametrizations (the first varying slowest), with
/// pytest's ids: `base[id1-id2-…]`.
fn combine<'a>(
    first: Case<'a>,
    base: &str,
    order: &[Parametrize<'a>],
) -> Result<Vec<Case<'a>>, String> {
    let mut cases = vec![(first, Vec::new())];
    for p in order {
        if cases.len().saturating_mul(p.sets.len()) > MAX_CASES {
            return Err(format!(
                "its parametrizations make more than {MAX_CASES} cases, which the extractor does not expand"
            ));
        }
        cases = cases
            .iter()
            .flat_map(|(case, idlist)| {
                p.sets
                    .iter()
                    .map(move |set| extend_case(case, idlist, p, set))
            })
            .collect();
    }
    Ok(cases
        .into_iter()
        .map(|(mut case, idlist)| {
            case.id = if idlist.is_empty() {
                base.to_string()
            } else {
                format!("{base}[{}]", idlist.join("-"))
            };
            case
        })
        .collect())
}

/// One case with one more parameter set (its values and its id part).
fn extend_case<'a>(
    case: &Case<'a>,
    idlist: &[String],
    p: &Parametrize<'a>,
    set: &ParamSet<'a>,
) -> (Case<'a>, Vec<String>) {
    let mut params = case.params.clone();
    let mut ranges = case.param_ranges.clone();
    let mut fixture_values = case.fixture_values.clone();
    let mut set_not_run = set.not_run.clone().or_else(|| p.not_run.clone());
    for (i, name) in p.names.iter().enumerate() {
        if p.indirect[i] && !p.pass_through[i] {
            if let Some((_, text)) = set.replay.iter().find(|(j, _)| *j == i) {
                fixture_values.push((name.clone(), text.clone(), set.range));
            }
            continue;
        }
        match set.exprs.as_ref().map(|e| e[i]) {
            Some(expr) => {
                params.push((name.clone(), expr));
                // One range per parameter: the case (of its own decorator) it came from.
                ranges.push(set.range);
            }
            None => {
                set_not_run.get_or_insert_with(|| {
                    Collection::ParamValueComputed.because(format!(
                        "parametrize on line {}: the value of `{name}` is computed, so the extractor cannot replay it",
                        p.line
                    ))
                });
            }
        }
    }
    let mut idlist = idlist.to_vec();
    if let Id::Shown(id) = &set.id {
        idlist.push(id.clone());
    }
    let next = Case {
        id: String::new(),
        func: case.func,
        is_method: case.is_method,
        unittest: case.unittest,
        unittest_setup: case.unittest_setup,
        params,
        param_ranges: ranges,
        not_run: case.not_run.clone().or(set_not_run.map(kept)),
        parametrized: true,
        setup: case.setup.clone(),
        class_fixtures: case.class_fixtures.clone(),
        fixture_values,
    };
    (next, idlist)
}

fn keyword<'a>(call: &'a ast::ExprCall, kw: &str) -> Option<&'a Expr> {
    call.arguments
        .keywords
        .iter()
        .find(|k| k.arg.as_ref().is_some_and(|a| a.as_str() == kw))
        .map(|k| &k.value)
}
