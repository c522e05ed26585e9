//! One module or class body: which names pytest collects from it (a later definition shadows an
//! earlier one, `del`, `name.__test__ = False`, a rebound name, `test_b = test_a` aliases), and the
//! cases of each `test*` function in it.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use ruff_python_ast::{self as ast, Expr, Stmt};
use ruff_text_size::{Ranged, TextRange};

use crate::pytest::value::Place;
use crate::rules::Collection;

use super::fixtures::Fixtures;
use super::marks::{Mark, TestAttr};
use super::{kept, Case, CaseReason, Collector, Unlisted};
use crate::module::falsy_literal;

/// A body being collected (the module's or a test class's) and what it inherits from the scopes
/// around it.
pub(super) struct Within<'r, 'a> {
    pub(super) body: &'a [Stmt],
    /// `""` for the module, `TestA::` (nested: `TestA::TestB::`) for a class body.
    pub(super) prefix: &'r str,
    pub(super) marks: &'r [Mark<'a>],
    pub(super) setup: &'r [(u32, CaseReason)],
    pub(super) fixtures: &'r Fixtures<'a>,
    /// The line of the `pytest_generate_tests` hook in scope, if any.
    pub(super) generate: Option<u32>,
}

/// `test_b = test_a`: pytest collects the function again under the new name (when that is the
/// name's last binding in the body).
fn test_aliases(body: &[Stmt]) -> Vec<(&str, &str)> {
    let mut aliases = Vec::new();
    for (i, stmt) in body.iter().enumerate() {
        let Stmt::Assign(a) = stmt else { continue };
        let ([Expr::Name(target)], Expr::Name(value)) = (a.targets.as_slice(), a.value.as_ref())
        else {
            continue;
        };
        let name = target.id.as_str();
        let rebound_later = body[i + 1..].iter().any(|s| match s {
            Stmt::Assign(b) => b
                .targets
                .iter()
                .any(|t| matches!(t, Expr::Name(n) if n.id.as_str() == name)),
            Stmt::FunctionDef(g) => g.name.as_str() == name,
            _ => false,
        });
        let defined_before = body[..i]
            .iter()
            .any(|s| matches!(s, Stmt::FunctionDef(g) if g.name.as_str() == value.id.as_str()));
        if name.starts_with("test") && !rebound_later && defined_before {
            aliases.push((name, value.id.as_str()));
        }
    }
    aliases
}

/// `test_x = pytest.mark.skip(...)(test_x)` (or any rebinding of a test's name after its
/// definition): pytest collects whatever the name holds then.
fn rebound_tests<'b>(
    body: &'b [Stmt],
    last_def: &HashMap<&'b str, usize>,
) -> HashMap<&'b str, TextRange> {
    let mut rebound = HashMap::default();
    for (i, stmt) in body.iter().enumerate() {
        match stmt {
            Stmt::Assign(a) => {
                for t in &a.targets {
                    if let Expr::Name(n) = t {
                        if last_def.get(n.id.as_str()).is_some_and(|&j| j < i) {
                            rebound.insert(n.id.as_str(), stmt.range());
                        }
                    }
                }
            }
            // A later `def` or `class` of the name replaces it (`last_def`).
            Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
            // Anything else that binds the name at module level, maybe in a branch: an import
            // (`from .py38 import test_x` under a version guard), a loop target, `with … as`.
            _ => {
                let mut bound = crate::module::BoundNames::default();
                ruff_python_ast::visitor::Visitor::visit_stmt(&mut bound, stmt);
                for name in bound.names {
                    if let Some((&key, _)) = last_def.get_key_value(name.as_str()) {
                        if last_def[key] < i {
                            rebound.insert(key, stmt.range());
                        }
                    }
                }
            }
        }
    }
    rebound
}

/// Names a `del` statement of the body removes, with the index of the definition it removes (the
/// last one before it, when that binding is the name's last).
fn deleted_names(body: &[Stmt]) -> HashSet<(&str, usize)> {
    let mut out = HashSet::default();
    for (i, stmt) in body.iter().enumerate() {
        // `test_helper.__test__ = False` after the `def`: pytest reads `__test__` when it collects
        // the module, after the whole of it ran, and collects nothing under that name. (The last
        // such store decides.)
        let disabled: Vec<&str> = match stmt {
            Stmt::Delete(d) => d
                .targets
                .iter()
                .filter_map(|t| match t {
                    Expr::Name(n) => Some(n.id.as_str()),
                    _ => None,
                })
                .collect(),
            Stmt::Assign(a) => match (a.targets.as_slice(), falsy_literal(&a.value)) {
                ([Expr::Attribute(t)], Some(true))
                    if t.attr.as_str() == "__test__"
                        && !body[i + 1..].iter().any(|s| {
                            stores_test_attr(s, t.value.as_name_expr().map(|n| n.id.as_str()))
                        }) =>
                {
                    t.value
                        .as_name_expr()
                        .map(|n| vec![n.id.as_str()])
                        .unwrap_or_default()
                }
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        for name in disabled {
            let def = body[..i].iter().rposition(|s| match s {
                Stmt::FunctionDef(f) => f.name.as_str() == name,
                Stmt::ClassDef(c) => c.name.as_str() == name,
                _ => false,
            });
            let redefined = body[i + 1..].iter().any(|s| match s {
                Stmt::FunctionDef(f) => f.name.as_str() == name,
                Stmt::ClassDef(c) => c.name.as_str() == name,
                Stmt::Assign(a) => a
                    .targets
                    .iter()
                    .any(|t| matches!(t, Expr::Name(m) if m.id.as_str() == name)),
                _ => false,
            });
            if let (Some(j), false) = (def, redefined) {
                out.insert((name, j));
            }
        }
    }
    out
}

/// Whether a statement stores `name.__test__` (any `__test__` store when the name is unknown).
fn stores_test_attr(stmt: &Stmt, name: Option<&str>) -> bool {
    matches!(stmt, Stmt::Assign(a) if a.targets.iter().any(|t| matches!(t,
        Expr::Attribute(at) if at.attr.as_str() == "__test__"
            && name.is_none_or(|n| matches!(at.value.as_ref(), Expr::Name(m) if m.id.as_str() == n)))))
}

impl<'s, 'a> Collector<'s, 'a> {
    /// Collect the tests of a module or class body, recursing into test classes.
    pub(super) fn collect_in(&mut self, within: Within<'_, 'a>) {
        let body = within.body;
        // pytest collects a name once: a later definition replaces an earlier one.
        let mut last_def: HashMap<&str, usize> = HashMap::default();
        for (i, stmt) in body.iter().enumerate() {
            if let Stmt::FunctionDef(f) = stmt {
                last_def.insert(f.name.as_str(), i);
            }
        }
        let first_case = self.cases.len();
        let rebound = rebound_tests(body, &last_def);
        let deleted = deleted_names(body);
        // A decorator that sets `__test__` (nose's `nottest`), on the definition the name holds
        // last: pytest reads the attribute there, and collects nothing under the name when false.
        let class_body = (!within.prefix.is_empty()).then_some(body);
        let mut test_attr: HashMap<&str, TestAttr> = HashMap::default();
        for (&name, &j) in &last_def {
            let Stmt::FunctionDef(f) = &body[j] else {
                continue;
            };
            // `test_x = nottest(test_x)` after the `def` applies one more, outermost.
            let rebinding = rebound.get(name).and_then(|range| {
                body.iter().find_map(|s| match s {
                    Stmt::Assign(a) if a.range == *range => match a.value.as_ref() {
                        Expr::Call(c)
                            if c.arguments.keywords.is_empty()
                                && matches!(c.arguments.args.as_ref(),
                                    [Expr::Name(n)] if n.id.as_str() == name) =>
                        {
                            Some(c.func.as_ref())
                        }
                        _ => None,
                    },
                    _ => None,
                })
            });
            if name.starts_with("test") && (rebinding.is_some() || !f.decorator_list.is_empty()) {
                let applied = rebinding
                    .into_iter()
                    .chain(f.decorator_list.iter().map(|d| &d.expression));
                test_attr.insert(name, self.applied_test_attr(applied, class_body));
            }
        }
        for (i, stmt) in body.iter().enumerate() {
            match stmt {
                // `del test_x` after its definition: pytest finds nothing under the name.
                Stmt::FunctionDef(f) if deleted.contains(&(f.name.as_str(), i)) => {}
                Stmt::ClassDef(c) if deleted.contains(&(c.name.as_str(), i)) => {}
                Stmt::FunctionDef(f)
                    if f.name.starts_with("test") && !self.exclude.contains(f.name.as_str()) =>
                {
                    let shadowed = last_def.get(f.name.as_str()).copied().filter(|&j| j != i);
                    match test_attr.get(f.name.as_str()) {
                        // Not collected: no entry, no id (its asserts are a helper's).
                        Some(TestAttr::False) => {}
                        // Whether pytest collects it is not known: listed apart, once.
                        Some(TestAttr::Unknown(why)) => {
                            if shadowed.is_none() {
                                self.unlisted.push(Unlisted {
                                    func: f,
                                    name: format!("{}{}", within.prefix, f.name),
                                    why: why.clone(),
                                    cases: 1,
                                });
                            }
                        }
                        _ => self.collect_function(
                            &within,
                            f,
                            shadowed,
                            rebound.get(f.name.as_str()),
                        ),
                    }
                }
                Stmt::ClassDef(c)
                    if c.name.starts_with("Test") && !self.unittest_classes.contains(&c.range) =>
                {
                    self.collect_class(&within, c)
                }
                _ => {}
            }
        }
        for (alias, original) in test_aliases(body) {
            let from = format!("{}{original}", within.prefix);
            let copies: Vec<Case<'a>> = self.cases[first_case..]
                .iter()
                .filter(|c| {
                    c.func.name.as_str() == original
                        && (c.id == from || c.id.starts_with(&format!("{from}[")))
                })
                .map(|c| {
                    let mut c = c.clone();
                    c.id = format!("{}{alias}{}", within.prefix, &c.id[from.len()..]);
                    c
                })
                .collect();
            self.cases.extend(copies);
        }
    }

    /// The cases of one `test*` function of the body (or why its ids are unknown).
    fn collect_function(
        &mut self,
        within: &Within<'_, 'a>,
        f: &'a ast::StmtFunctionDef,
        shadowed: Option<usize>,
        rebound: Option<&TextRange>,
    ) {
        let map = self.map;
        let in_class = !within.prefix.is_empty();
        let place = Place {
            class: in_class.then_some(within.body),
            before: f.range.start(),
        };
        // pytest's order: the function's marks bottom-up, then its classes', then the module's.
        let mut marks: Vec<Mark<'a>> = f
            .decorator_list
            .iter()
            .rev()
            .map(|d| Mark {
                expr: &d.expression,
                place,
                own: true,
            })
            .collect();
        marks.extend(within.marks.iter().copied());
        let name = format!("{}{}", within.prefix, f.name);
        let mut cases =
            match self.expand(f, &marks, &name, in_class, within.fixtures, within.generate) {
                Ok(cases) => cases,
                Err(why) => {
                    if shadowed.is_none() {
                        let cases = self.unlisted_cases.take().unwrap_or(1);
                        self.unlisted.push(Unlisted {
                            func: f,
                            name,
                            why,
                            cases,
                        });
                    }
                    return;
                }
            };
        for case in &mut cases {
            case.setup.extend(within.setup.iter().cloned());
            case.class_fixtures
                .extend(self.class_fixtures.iter().cloned());
            if let Some(r) = rebound {
                case.not_run.get_or_insert_with(|| {
                    kept(Collection::TestNameRebound.because(format!(
                        "`{}` on line {} rebinds the test's name (or may); pytest collects what the name holds once the module has run (a mark, a wrapper, another function)",
                        map.snippet(*r),
                        map.line(r.start())
                    )))
                });
            }
            if let Some(j) = shadowed {
                let line = map.line(within.body[j].range().start());
                case.not_run = Some(kept(Collection::TestRedefined.because(format!(
                    "a later definition of `{}` (line {line}) replaces this one; pytest never runs it",
                    f.name
                ))));
            }
            if f.is_async {
                case.not_run.get_or_insert_with(|| {
                    kept(
                        Collection::AsyncTest
                            .because("an `async def` test needs a plugin to run under pytest"),
                    )
                });
            }
        }
        self.cases.extend(cases);
    }
}
