//! Deciding one top-level assert: which items it replays (`replay`), what every name it and its
//! replay read stands for, whether anything forbids keeping it, and then inline or fold (`emit`).

use crate::sort::SharedSort as _;
use std::rc::Rc;

use ruff_python_ast::visitor::Visitor;
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::Ranged;

use super::items::{Item, Kind, Piece};
use super::replay::{self, Replay};
use super::resolve::{self, Aliases, Resolution};
use super::{emit, Ctx, Test};
use crate::model::{Assertion, Origin, OriginRole};
use crate::module::Global;
use crate::names::{self, Facts, Replacement};
use crate::rules::{Helpers, Reason, Statements};
use crate::shape::Shape;

/// The names an assertion and its replay read: the loads of each, and the replayed item they
/// belong to (`None`: the assert itself).
type Sources<'l> = [(&'l [names::Load], Option<usize>)];

/// Decide one top-level assert: which items to replay, whether every name resolves, and whether
/// to inline, fold or drop.
pub(super) fn assertion(
    ctx: &Ctx,
    test: &Test,
    stmt: &ast::StmtAssert,
    items: &[Item],
    all_solution_names: &mut Vec<String>,
) -> Assertion {
    decide(
        ctx,
        test,
        stmt,
        Some(stmt.test.as_ref()),
        items,
        &[],
        Special::default(),
        all_solution_names,
    )
}

/// A top-level assert `stmt` of the test-file helper `def`, which the test calls as its statement
/// `call` (`check(f)`) after `items`: the check is the call itself, the helper written as a lambda
/// that is true when pytest reaches and passes that assert (`resolve::helper_check`), replayed
/// after everything the test ran before the call, under the test's id.
pub(super) fn in_helper(
    ctx: &Ctx,
    test: &Test,
    stmt: &ast::StmtAssert,
    call: &Expr,
    def: &ast::StmtFunctionDef,
    items: &[Item],
    all_solution_names: &mut Vec<String>,
) -> Assertion {
    let name = def.name.as_str();
    let called_at = ctx.map.line(call.start());
    let mut origins = vec![Origin {
        role: OriginRole::Folded,
        span: ctx.map.span(call.range()),
    }];
    let mut solution_names = Vec::new();
    let lambda = resolve::helper_check(ctx, def, Some(stmt), &mut origins, &mut solution_names);
    let lambda = match lambda {
        Ok(lambda) => lambda,
        Err(why) => {
            return emit::dropped(
                ctx,
                test.case,
                stmt,
                why.map(|why| format!("the test calls `{name}` on line {called_at}, and {why}")),
                vec![],
                vec![Shape::HelperAssertion],
                origins,
            )
        }
    };
    // Earlier calls of the helper are checks of the whole call (`Piece::HelperCheck`), which spell
    // it whole; any other earlier read of its name cannot be told apart from this call's.
    let earlier: Vec<&Item> = items
        .iter()
        .filter(|it| it.loads.iter().any(|l| l.name == name))
        .collect();
    if let Some(other) = earlier
        .iter()
        .find(|it| !matches!(it.fold, Ok(Piece::HelperCheck(_))))
    {
        return emit::dropped(
            ctx,
            test.case,
            stmt,
            Helpers::HelperReadOtherwise.because(format!(
                "the test calls `{name}` on line {called_at}, and {} before it reads `{name}` other than as a call statement",
                other.what(ctx)
            )),
            vec![name.to_string()],
            vec![Shape::HelperAssertion],
            origins,
        );
    }
    let pre = Pre {
        name,
        value: lambda,
        origins,
        solution_names,
        final_only: !earlier.is_empty(),
    };
    decide(
        ctx,
        test,
        stmt,
        Some(call),
        items,
        &[],
        Special {
            pre: Some(pre),
            call_check: false,
        },
        all_solution_names,
    )
}

/// A check unittest makes, `self.assertEqual(a, b)`, as a top-level statement (`call`) of a
/// unittest test whose instance `setup` binds to a plain `unittest.TestCase()`: kept as
/// `<call> is None`, unittest's own comparison, which returns `None` when the check passes and
/// raises when it fails. `stmt`: the statement, as an entry reports it.
pub(super) fn unittest_check(
    ctx: &Ctx,
    test: &Test,
    stmt: &ast::StmtAssert,
    call: &Expr,
    items: &[Item],
    all_solution_names: &mut Vec<String>,
) -> Assertion {
    decide(
        ctx,
        test,
        stmt,
        Some(call),
        items,
        &[],
        Special {
            pre: None,
            call_check: true,
        },
        all_solution_names,
    )
}

/// What is special about a check: a helper written out for it (`in_helper`), or a check that is
/// a call returning `None` when it passes (`unittest_check`).
#[derive(Default)]
struct Special<'p> {
    pre: Option<Pre<'p>>,
    call_check: bool,
}

/// The helpers that earlier call statements of the test check whole (`Piece::HelperCheck` items
/// among `replay`): each name, spelled as the whole helper, with what writing it out found. A
/// helper that cannot be written whole, or whose name the fold also reads otherwise, refuses.
#[allow(clippy::type_complexity)]
fn helper_calls(
    ctx: &Ctx,
    items: &[Item],
    replay: &[usize],
    pre: Option<&Pre>,
) -> Result<Vec<(String, names::Rendered, Vec<Origin>, Vec<String>)>, Reason> {
    let mut out: Vec<(String, names::Rendered, Vec<Origin>, Vec<String>)> = Vec::new();
    for &i in replay {
        let Ok(Piece::HelperCheck(Expr::Call(call))) = &items[i].fold else {
            continue;
        };
        let Expr::Name(n) = call.func.as_ref() else {
            continue;
        };
        let name = n.id.as_str();
        if out.iter().any(|(done, ..)| done == name) {
            continue;
        }
        let Some(Global::Helper { def: Some(def), .. }) = ctx.scope.globals.get(name) else {
            continue;
        };
        if let Some(other) = replay.iter().map(|&j| &items[j]).find(|it| {
            !matches!(it.fold, Ok(Piece::HelperCheck(_))) && it.loads.iter().any(|l| l.name == name)
        }) {
            return Err(Helpers::HelperReadOtherwise.because(format!(
                "{} runs before this check and reads `{name}`, which the test also calls as an asserting helper",
                other.what(ctx)
            )));
        }
        if pre.is_some_and(|p| p.name == name && !p.final_only) {
            continue;
        }
        let mut origins = Vec::new();
        let mut solution_names = Vec::new();
        let whole = resolve::helper_check(ctx, def, None, &mut origins, &mut solution_names)
            .map_err(|why| {
                why.map(|why| {
                    format!(
                        "the test calls `{name}` on line {} before this check, and {why}",
                        ctx.map.line(call.range().start())
                    )
                })
            })?;
        out.push((name.to_string(), whole, origins, solution_names));
    }
    Ok(out)
}

/// A name whose spelling is decided before the assertion's names are resolved: a helper the check
/// calls (`in_helper`), with what writing it out found.
struct Pre<'p> {
    name: &'p str,
    value: names::Rendered,
    origins: Vec<Origin>,
    solution_names: Vec<String>,
    /// The test called the helper before (`Piece::HelperCheck` items, which spell it whole):
    /// `value` spells it in the final check alone.
    final_only: bool,
}

/// An assert inside the `for` loop that is the last of `items` (whose body folds): the loop, with
/// every assert of its body, is the check (see `Piece::Loop`). `fresh`: module constants the loop
/// iterates that must be written out where the loop reads them (their value is what shows that it
/// runs at least once); a constant bound once and shared with other reads may have been changed.
pub(super) fn in_loop(
    ctx: &Ctx,
    test: &Test,
    stmt: &ast::StmtAssert,
    items: &[Item],
    fresh: &[String],
    all_solution_names: &mut Vec<String>,
) -> Assertion {
    decide(
        ctx,
        test,
        stmt,
        None,
        items,
        fresh,
        Special::default(),
        all_solution_names,
    )
}

#[allow(clippy::too_many_arguments)]
fn decide(
    ctx: &Ctx,
    test: &Test,
    stmt: &ast::StmtAssert,
    expr: Option<&Expr>,
    items: &[Item],
    fresh: &[String],
    special: Special,
    all_solution_names: &mut Vec<String>,
) -> Assertion {
    let Special { pre, call_check } = special;
    let facts = expr.map(Facts::of).unwrap_or_default();
    let replay = replay::replay_set(test, &facts, items);
    let mut sources: Vec<(&[names::Load], Option<usize>)> = vec![(&facts.loads, None)];
    for &i in &replay.items {
        sources.push((&items[i].loads, Some(i)));
    }
    let helper = pre.is_some();
    let overridden = pre
        .as_ref()
        .filter(|p| p.final_only)
        .map(|p| (p.name.to_string(), p.value.clone()));
    let calls = match helper_calls(ctx, items, &replay.items, pre.as_ref()) {
        Ok(calls) => calls,
        Err(why) => {
            return emit::dropped(ctx, test.case, stmt, why, vec![], vec![], vec![]);
        }
    };
    let mut names = Names::resolve(ctx, test, &sources, items, pre, calls);
    names.refuse_captured_locals(test);
    let shared = shared_constants(ctx, test, &sources, &mut names.map);
    names.refuse_unbound(&replay.unbound, ctx.map.line(stmt.range.start()));
    names.solution_names.sort_shared();
    names.solution_names.dedup();
    all_solution_names.extend(names.solution_names.iter().cloned());
    let mut shapes = shapes(ctx, test, &facts, items, &replay.items, &names);
    if helper {
        shapes.push(Shape::HelperAssertion);
        shapes.sort_shared();
        shapes.dedup();
    }
    let decision = Decision {
        ctx,
        test,
        expr,
        facts: &facts,
        items,
        replay: &replay,
        call_check,
        overridden,
    };
    if let Some((reason, listed)) = decision.refusal(&mut names) {
        return emit::dropped(ctx, test.case, stmt, reason, listed, shapes, names.origins);
    }
    if let Some((name, _)) = shared.iter().find(|(n, _)| fresh.contains(n)) {
        return emit::dropped(
            ctx,
            test.case,
            stmt,
            Statements::SharedLoopIterable.because(format!("the loop iterates the module's mutable `{name}`, which the test also reads elsewhere (one object for both): what runs before the loop may empty it, and then pytest never runs this assert")),
            vec![name.clone()],
            shapes,
            names.origins,
        );
    }
    match decision
        .write(&mut names, &shared)
        .and_then(|text| named_as_pytest(ctx, test, expr, items, &replay.items, text))
        .and_then(|text| with_conftests(ctx, test, text))
    {
        Ok(text) => emit::kept(ctx, test.case, stmt, text, shapes, names.origins),
        Err(reason) => emit::dropped(ctx, test.case, stmt, reason, vec![], shapes, names.origins),
    }
}

/// The check run as the test function pytest runs (`qualnames::with_qualnames`), where it
/// creates a lambda or generator expression whose name can be observed, or where a replayed value
/// calls the renamer (a conftest fixture's value, a nested definition). In a method, whose
/// `__qualname__` depends on the class that defines it, only the renamer is bound, and a check
/// that creates an observable lambda or generator there is refused.
fn named_as_pytest(
    ctx: &Ctx,
    test: &Test,
    expr: Option<&Expr>,
    items: &[Item],
    replay: &[usize],
    text: String,
) -> Result<String, Reason> {
    // A builtin's name, read bare, is the builtin where neither the test, the file nor a star
    // import of the solution binds it.
    let builtin = |n: &str| {
        !test.locals.contains(n)
            && !ctx.scope.globals.contains_key(n)
            && !ctx.scope.star_import
            && ruff_python_stdlib::builtins::is_python_builtin(n, 14, false)
    };
    // The test's own statements: module-level code replayed in the fold (the prelude, a
    // parametrize list) creates what pytest names at module level, not the test's.
    let f = test.case.func;
    let body = ruff_text_size::TextRange::new(
        f.body.first().map_or(f.range.end(), |s| s.range().start()),
        f.range.end(),
    );
    let creates = expr.is_some_and(|e| {
        if test.case.unittest {
            super::qualnames::observably_named_in_unittest(e, &builtin)
        } else {
            super::qualnames::observably_named(e, &builtin)
        }
    }) || replay.iter().any(|&i| {
        body.contains_range(items[i].range)
            && items[i]
                .fold
                .as_ref()
                .is_ok_and(|p| super::items::piece_creates_named(p, &builtin))
    });
    let calls_renamer = text.contains(super::qualnames::NAME);
    if test.case.is_method || test.case.unittest {
        if creates {
            return Err(crate::rules::Statements::NestedDefinition.because(format!(
                "it creates a lambda or generator expression in the test method `{}`, which pytest's run names after the class that defines the method (`__qualname__`), and a candidate may read that name",
                f.name
            )));
        }
        return Ok(if calls_renamer {
            format!(
                "(lambda {}: {text})({})",
                super::qualnames::NAME,
                super::qualnames::RENAMER
            )
        } else {
            text
        });
    }
    Ok(if creates || calls_renamer {
        super::qualnames::with_qualnames(&text, f.name.as_str(), f.name.as_str())
    } else {
        text
    })
}

/// The conftests' import-time code (`ModuleScope::conftest_replays`, outermost first) run before
/// the whole expression, as pytest runs it before it imports the test file: before the names the
/// file imports from the solution are bound (`(lambda f=f: …)`), outside the fold's lambda (its
/// locals are not the conftest's). Each is a lambda of its own whose one free name is `__import__`
/// (see `conftest_replay`): refused when the solution may bind `__import__`, or when the test
/// loads the solution again (the conftest ran on the module the file imports, not on that one).
fn with_conftests(ctx: &Ctx, test: &Test, text: String) -> Result<String, Reason> {
    let Some(first) = ctx.scope.conftest_replays.first() else {
        return Ok(text);
    };
    let label = format!(
        "the import-time code of `{}` (from line {})",
        first.label, first.line
    );
    if let Some(why) = super::fresh_load_reason(ctx, test.case.func) {
        return Err(Statements::SolutionLoadedTwice.because(format!("{label} runs when pytest imports it, on the solution module the file imports; {why}, which the evaluation namespace cannot tell apart")));
    }
    if resolve::shadows_import(ctx) {
        return Err(Statements::ImportInTest.because(format!(
            "{label} is replayed through `__import__`, which the solution may rebind"
        )));
    }
    let replays: Vec<&str> = ctx
        .scope
        .conftest_replays
        .iter()
        .map(|r| r.text.as_str())
        .collect();
    Ok(format!("({}, ({text}))[-1]", replays.join(", ")))
}

/// What the names an assertion and its replay read stand for, and the ones that cannot be
/// resolved, with why.
struct Names {
    /// How each resolved name is written in the solution's namespace.
    map: Aliases,
    unresolved: Vec<String>,
    /// For each of `unresolved`, why.
    why: Vec<Reason>,
    /// Where the constants and helpers written out come from.
    origins: Vec<Origin>,
    /// The solution's names the assertion reads.
    solution_names: Vec<String>,
    /// Whether a name is (or would be) a standard-library import.
    stdlib: bool,
}

impl Names {
    /// Resolve every non-local name the assertion and its replay read.
    fn resolve(
        ctx: &Ctx,
        test: &Test,
        sources: &Sources,
        items: &[Item],
        pre: Option<Pre>,
        calls: Vec<(String, names::Rendered, Vec<Origin>, Vec<String>)>,
    ) -> Self {
        let mut names = Names {
            map: test.aliases.clone(),
            unresolved: Vec::new(),
            why: Vec::new(),
            origins: Vec::new(),
            solution_names: Vec::new(),
            stdlib: false,
        };
        if let Some(pre) = pre {
            if !pre.final_only {
                names
                    .map
                    .insert(pre.name.to_string(), Replacement::Value(Rc::new(pre.value)));
            }
            names.origins.extend(pre.origins);
            names.solution_names.extend(pre.solution_names);
        }
        for (name, value, origins, solution_names) in calls {
            names.map.insert(name, Replacement::Value(Rc::new(value)));
            names.origins.extend(origins);
            names.solution_names.extend(solution_names);
        }
        for (loads, item) in sources {
            for load in loads.iter() {
                let Some(resolution) = names.resolve_load(ctx, test, load, sources) else {
                    continue;
                };
                names.stdlib |= matches!(resolution, Resolution::Stdlib);
                if let Resolution::Unresolved(reason, is_import) = resolution {
                    names.stdlib |= is_import;
                    names.refuse(ctx, &load.name, reason, *item, items);
                }
            }
        }
        names
    }

    /// What one read stands for; `None` for a local, or a name resolved before (except a read of a
    /// module attribute, which is checked every time, even through a name resolved before).
    fn resolve_load(
        &mut self,
        ctx: &Ctx,
        test: &Test,
        load: &names::Load,
        sources: &Sources,
    ) -> Option<Resolution> {
        let name = load.name.as_str();
        // `sys.platform`: every read of the file's `sys` is checked, each must be such a value.
        if !test.is_local(name) && !test.aliases.contains_key(name) {
            if let Some(Global::Import { module, .. }) = ctx.scope.globals.get(name) {
                if module == "sys" && name == "sys" {
                    return Some(match resolve::sys_value(ctx, name, load.attr.as_deref()) {
                        Some(value) => {
                            self.map
                                .insert(name.to_string(), Replacement::Value(Rc::new(value)));
                            Resolution::Stdlib
                        }
                        None => resolve::resolve_global(
                            ctx,
                            name,
                            load.attr.as_deref(),
                            only_called(sources, name),
                            &mut self.map,
                            &mut self.origins,
                            &mut self.solution_names,
                        ),
                    });
                }
            }
        }
        let mapped = self.map.contains_key(name) && !test.aliases.contains_key(name);
        let module_read = load.attr.is_some()
            && matches!(self.map.get(name), Some(Replacement::SolutionModule(_)));
        if test.is_local(name) || (mapped && !module_read) {
            return None;
        }
        Some(match test.aliases.get(name) {
            Some(Replacement::SolutionModule(_)) => match &load.attr {
                Some(attr) => {
                    resolve::module_attr(ctx, name, attr, &mut self.map, &mut self.solution_names)
                }
                None => {
                    self.map
                        .insert(name.to_string(), resolve::module_replacement(ctx));
                    Resolution::Ok
                }
            },
            Some(Replacement::Value(v)) if names::is_import_value(v) => Resolution::Stdlib,
            Some(Replacement::Value(v)) => {
                // `<binding>.attr`: the solution's `attr`.
                let attr = v.text.rsplit('.').next().unwrap_or(&v.text);
                self.solution_names.push(attr.to_string());
                Resolution::Ok
            }
            None if module_read => resolve::module_attr(
                ctx,
                name,
                load.attr.as_deref().unwrap_or_default(),
                &mut self.map,
                &mut self.solution_names,
            ),
            None => match resolve::frame_read(
                ctx,
                name,
                sources.iter().flat_map(|(loads, _)| loads.iter()),
            ) {
                Some(refused) => refused,
                None => resolve::resolve_global(
                    ctx,
                    name,
                    load.attr.as_deref(),
                    only_called(sources, name),
                    &mut self.map,
                    &mut self.origins,
                    &mut self.solution_names,
                ),
            },
        })
    }

    /// Record `name` as unresolved (once), saying which replayed item reads it.
    fn refuse(
        &mut self,
        ctx: &Ctx,
        name: &str,
        reason: Reason,
        item: Option<usize>,
        items: &[Item],
    ) {
        if self.unresolved.iter().any(|u| u == name) {
            return;
        }
        self.unresolved.push(name.to_string());
        self.why.push(match item {
            Some(i) if items[i].kind == Kind::Assert => reason.map(|reason| {
                format!(
                    "the earlier assert {} is replayed before this one, and {reason}",
                    items[i].what(ctx)
                )
            }),
            Some(i) if !items[i].defs.is_empty() => reason
                .map(|reason| format!("{} feeds this assertion, and {reason}", items[i].what(ctx))),
            Some(i) => reason.map(|reason| {
                format!(
                    "{} runs before this assertion and may change what it reads, and {reason}",
                    items[i].what(ctx)
                )
            }),
            None => reason,
        });
    }

    /// A value written out for a global (a helper's lambda) must not read a local of the test,
    /// which the fold would bind under that name.
    fn refuse_captured_locals(&mut self, test: &Test) {
        let mut captured: Vec<(String, String)> = self
            .map
            .iter()
            .filter(|(name, _)| !test.aliases.contains_key(name.as_str()))
            .filter_map(|(name, r)| match r {
                Replacement::Value(v) => v
                    .free
                    .iter()
                    .find(|f| test.locals.contains(f.as_str()))
                    .map(|f| (name.clone(), f.clone())),
                Replacement::SolutionModule(_) => None,
            })
            .collect();
        captured.sort_shared();
        for (name, local) in captured {
            self.unresolved.push(name.clone());
            self.why.push(Helpers::HelperCapturesLocal.because(format!(
                "`{name}` reads the global `{local}`, which this test also binds as a local"
            )));
        }
    }

    /// Locals the assertion needs that nothing before line `line` binds.
    fn refuse_unbound(&mut self, unbound: &[names::Ident], line: u32) {
        for n in unbound {
            self.unresolved.push(n.to_string());
            self.why.push(
                Statements::LocalUnbound
                    .because(format!("`{n}` is not assigned before line {line}")),
            );
        }
    }
}

/// Whether every read of `name` the assertion and its replay make is a call's callee.
fn only_called(sources: &Sources, name: &str) -> bool {
    sources
        .iter()
        .all(|(loads, _)| loads.iter().all(|l| l.name != name || l.called))
}

/// The shapes of the assertion: what its replay holds, a standard-library reference, a solution
/// name other than the problem's slug.
fn shapes(
    ctx: &Ctx,
    test: &Test,
    facts: &Facts,
    items: &[Item],
    replay: &[usize],
    names: &Names,
) -> Vec<Shape> {
    let mut shapes = replay::shapes_of(test, facts, items, replay);
    if names.stdlib {
        shapes.push(Shape::StdlibReference);
    }
    if names.solution_names.iter().any(|n| n != ctx.slug) {
        shapes.push(Shape::SlugNameMismatch);
    }
    shapes.sort_shared();
    shapes.dedup();
    shapes
}

/// An assertion whose names are resolved, being checked and written.
struct Decision<'d, 's, 'a, 't> {
    ctx: &'d Ctx<'s, 'a>,
    test: &'d Test<'t, 'a>,
    /// The assert's test; `None` for an assert inside the loop replayed last.
    expr: Option<&'d Expr>,
    facts: &'d Facts,
    items: &'d [Item<'a>],
    replay: &'d Replay,
    /// The check is a call that returns `None` when it passes: written `<call> is None`.
    call_check: bool,
    /// A helper the final check alone spells so (see `Pre::final_only`).
    overridden: Option<(String, names::Rendered)>,
}

impl Decision<'_, '_, '_, '_> {
    /// Why the assertion cannot be kept, with the names the reason lists, checked in this order:
    /// pytest does not run the case, a name is unresolved, a replayed item cannot be replayed, a
    /// walrus hides a solution name, a comparison chain, a live read of an imported name.
    fn refusal(&self, names: &mut Names) -> Option<(Reason, Vec<String>)> {
        if let Some(reason) = &self.test.case.not_run {
            return Some((reason.clone(), names.unresolved.clone()));
        }
        if let Some(first) = names.why.first() {
            let mut unresolved = names.unresolved.clone();
            unresolved.sort_shared();
            unresolved.dedup();
            // Each unresolved name's words; the rule is the first one's.
            let words: Vec<&str> = names.why.iter().map(Reason::as_str).collect();
            return Some((first.clone().map(|_| words.join("; ")), unresolved));
        }
        if let Some((i, reason, listed)) = replay::first_blocker(self.ctx, self.items, self.replay)
        {
            names.origins.push(Origin {
                role: OriginRole::Blocker,
                span: self.ctx.map.span(self.items[i].range),
            });
            return Some((reason, listed));
        }
        self.chained_comparison()
    }

    /// pytest's assertion rewriting evaluates every operand and every comparison of a chain
    /// (`a < b < c`), then joins the results; Python stops at the first false comparison.
    fn chained_comparison(&self) -> Option<(Reason, Vec<String>)> {
        let items = self.items;
        let mut checks: Vec<&Expr> = self.expr.into_iter().collect();
        for &i in &self.replay.items {
            if let Ok(piece) = &items[i].fold {
                piece_checks(piece, &mut checks);
            }
        }
        let chain = checks.into_iter().find_map(chained_comparison)?;
        Some((
            Statements::ChainedComparison.because(format!(
                "pytest's assertion rewriting evaluates every operand and comparison of the chain `{}` (line {}), where Python stops at the first false one",
                self.ctx.map.snippet(chain.range),
                self.ctx.map.line(chain.range.start())
            )),
            Vec::new(),
        ))
    }

    /// The kept expression: inlined if that is exact (and no constant is shared), else folded.
    fn write(&self, names: &mut Names, shared: &[(String, String)]) -> Result<String, Reason> {
        let (ctx, items) = (self.ctx, self.items);
        let inlined =
            if let (true, Some(expr), None) = (shared.is_empty(), self.expr, &self.overridden) {
                emit::try_inline(
                    ctx,
                    expr,
                    self.facts,
                    items,
                    &self.replay.items,
                    &names.map,
                    &mut names.origins,
                )
            } else {
                None
            };
        let inlined = match inlined {
            Some(text) if self.call_check => Some(format!("{text} is None")),
            Some(text) => Some(super::lifetimes::hold_as_pytest(text)?),
            None => None,
        };
        if let Some(text) = inlined {
            // A walrus in the assert binds a name: inside a lambda it cannot clobber a solution
            // global.
            let text = if self.facts.walrus.is_empty() {
                text
            } else {
                format!("(lambda: {text})()")
            };
            return Ok(text);
        }
        let text = emit::fold(
            ctx,
            self.expr.map(|e| {
                let how = match (&self.overridden, self.call_check) {
                    (Some((name, value)), _) => emit::FinalCheck::Override(name, value),
                    (None, true) => emit::FinalCheck::ReturnsNone,
                    (None, false) => emit::FinalCheck::Truth,
                };
                (e, self.facts, how)
            }),
            items,
            &self.replay.items,
            &names.map,
            &namespace_names(ctx, &names.map, &names.solution_names),
            shared,
        )?;
        for &i in &self.replay.items {
            names.origins.push(Origin {
                role: if items[i].role == OriginRole::Inlined {
                    OriginRole::Folded
                } else {
                    items[i].role
                },
                span: ctx.map.span(items[i].range),
            });
        }
        Ok(text)
    }
}

/// The names a kept expression reads bare from the evaluator's namespace, which a local the fold
/// binds must not hide: the module's binding (when the expression reads the module), the file's
/// names for what it took from the solution that the expression reads, and (after a star import)
/// the solution's names it reaches.
fn namespace_names(ctx: &Ctx, map: &Aliases, solution_names: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (name, r) in map {
        match r {
            Replacement::SolutionModule(Some(b)) => out.push(b.to_string()),
            Replacement::Value(_)
                if matches!(
                    ctx.scope.globals.get(name),
                    Some(Global::SolutionName { .. })
                ) =>
            {
                out.push(name.clone())
            }
            _ => {}
        }
    }
    if ctx.scope.star_import {
        out.extend(solution_names.iter().cloned());
    }
    out.sort_shared();
    out.dedup();
    out
}

/// Mutable constants of the test file read more than once by an assertion and its replay: they
/// leave `map` (so they are written by name) and are returned with their values, to be bound once.
/// (A mutable constant of the test file is one object in pytest: read more than once, it is bound
/// once at the start of the fold instead of written out at each read.)
fn shared_constants(
    ctx: &Ctx,
    test: &Test,
    sources: &Sources,
    map: &mut Aliases,
) -> Vec<(String, String)> {
    let mut counts: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for (loads, _) in sources {
        for load in loads.iter() {
            if !test.is_local(&load.name) {
                *counts.entry(load.name.as_str()).or_default() += 1 + usize::from(load.repeated);
            }
        }
    }
    let mut shared: Vec<(String, String)> = counts
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .filter_map(|(name, _)| match ctx.scope.globals.get(name) {
            Some(Global::Constant { value, source, .. })
                if !names::is_immutable_literal(source) =>
            {
                Some((name.to_string(), value.text.clone()))
            }
            _ => None,
        })
        .collect();
    shared.sort_shared();
    for (name, _) in &shared {
        map.remove(name);
    }
    shared
}

/// A comparison chain of two or more operators in an assert's expression (outside lambdas and
/// comprehensions, which pytest does not rewrite).
fn chained_comparison(expr: &Expr) -> Option<&ast::ExprCompare> {
    // Its own visitor, not `crate::walk`: pytest's boundary leaves out comprehensions too.
    use ruff_python_ast::visitor::walk_expr;
    struct Finder<'a>(Option<&'a ast::ExprCompare>);
    impl<'a> Visitor<'a> for Finder<'a> {
        fn visit_expr(&mut self, expr: &'a Expr) {
            if self.0.is_some() {
                return;
            }
            match expr {
                Expr::Compare(c) if c.ops.len() > 1 => self.0 = Some(c),
                Expr::Lambda(_)
                | Expr::ListComp(_)
                | Expr::SetComp(_)
                | Expr::DictComp(_)
                | Expr::Generator(_) => {}
                _ => walk_expr(self, expr),
            }
        }
    }
    let mut finder = Finder(None);
    finder.visit_expr(expr);
    finder.0
}

/// The asserts' tests a piece checks (an earlier assert's, those of a loop's body).
fn piece_checks<'a>(piece: &Piece<'a>, out: &mut Vec<&'a Expr>) {
    match piece {
        Piece::Check(e) | Piece::HelperCheck(e) => out.push(e),
        Piece::Loop(_, _, body) => body.iter().for_each(|p| piece_checks(p, out)),
        _ => {}
    }
}
