//! The entry point: one pytest file in, one [`Extraction`] out.

mod findings;
mod namespace;
mod session;
mod syntax;
#[cfg(test)]
mod tests;

use crate::sort::SharedSort as _;
use findings::{called_at_import, findings, helper_asserts, read_names, unlisted_finding};
use namespace::{bindings, test_module_name};
use syntax::{
    async_outside_async_function, async_outside_error, misplaced_starred, starred_error,
    syntax_errors,
};

use crate::rules::{Evaluator, Rule};
use rustc_hash::FxHashMap as HashMap;

use ruff_python_ast::{self as ast, Stmt};
use ruff_python_parser::{parse_module, Mode, ParseOptions};
use ruff_text_size::{TextRange, TextSize};

use crate::case::Case;
use crate::collect;
use crate::flatten::{self, Ctx};
use crate::guard;
use crate::incremental::Memo;
use crate::legacy;
use crate::model::{Extraction, Stage, CONTRACT_VERSION};
use crate::module::ModuleScope;
use crate::options::{slug_from_path, Options};
use crate::source::SourceMap;

/// Extract every assertion of a pytest file. Never panics on any input; syntax errors are listed
/// and what parses is still extracted.
pub fn extract(source: &str, options: &Options) -> Extraction {
    extract_limited(source, options, usize::MAX, None, false).extraction
}

/// [`extract`], reusing what `memo` remembers of the previous call's extraction where the edit
/// between the two texts cannot have changed it (`crate::incremental`), and remembering this
/// one's for the next call. The result is the same as [`extract`]'s.
pub fn extract_with(source: &str, options: &Options, memo: &mut Memo) -> Extraction {
    extract_limited(source, options, usize::MAX, Some(memo), false).extraction
}

/// [`extract`], or `None` as soon as the kept expressions would run to more than
/// `max_expression_chars` characters in all: a caller that must not wait long (the page's main
/// thread) tries this first and hands larger work to a worker. An extraction's cost grows with
/// what it writes (a test's every assert replays what ran before it), so this bounds its time
/// for a text of bounded size. When it returns `Some`, the extraction is the same as
/// [`extract`]'s.
pub fn extract_within(
    source: &str,
    options: &Options,
    max_expression_chars: usize,
) -> Option<Extraction> {
    let out = extract_limited(source, options, max_expression_chars, None, false);
    (!out.over_limit).then_some(out.extraction)
}

/// The extraction at `options.stage` and, when that is one of the write-up's earlier stages, the
/// faithful one (`Stage::Full`) of the same text as well, from one parse, one analysis and one
/// flattening (an earlier stage is built from the faithful stage's flattening anyway): the page
/// compares the two at every keystroke. Each is exactly what [`extract`] gives for its stage; the
/// second is `None` at the faithful stage. With a `memo`, as [`extract_with`]; with a limit below
/// `usize::MAX`, `None` as [`extract_within`] would give.
pub fn extract_with_faithful(
    source: &str,
    options: &Options,
    max_expression_chars: usize,
    memo: Option<&mut Memo>,
) -> Option<(Extraction, Option<Extraction>)> {
    let out = extract_limited(source, options, max_expression_chars, memo, true);
    (!out.over_limit).then_some((out.extraction, out.faithful))
}

/// What one parse of a text gave.
struct Outcome {
    /// At the options' stage.
    extraction: Extraction,
    /// The faithful stage's, when asked for and the options' stage is an earlier one.
    faithful: Option<Extraction>,
    /// The extraction stopped early at the limit of kept expressions' characters (then both
    /// are incomplete).
    over_limit: bool,
}

/// What a caller asks of one parse.
#[derive(Clone, Copy)]
struct Want<'o> {
    options: &'o Options,
    /// Stop early at this many characters of kept expressions.
    limit: usize,
    /// The faithful extraction too, under an earlier stage.
    faithful_too: bool,
}

/// The extraction (and the faithful one with `faithful_too`), stopping early at `limit`
/// characters of kept expressions.
fn extract_limited(
    source: &str,
    options: &Options,
    limit: usize,
    mut memo: Option<&mut Memo>,
    faithful_too: bool,
) -> Outcome {
    let (text, too_deep) = guard::guard(source);
    let parsed = ruff_python_parser::parse_unchecked(&text, ParseOptions::from(Mode::Module));
    let out = extract_parsed(
        source,
        &text,
        &too_deep,
        &parsed,
        Want {
            options,
            limit,
            faithful_too,
        },
        memo.as_deref_mut(),
    );
    // Freeing a large file's syntax tree takes a twentieth of a keystroke's extraction: with a
    // memo, its owner frees it later (`Memo::release`), after the result has been sent.
    if let Some(memo) = memo {
        memo.set_aside(Box::new(parsed));
    }
    out
}

/// [`extract_limited`] on the parsed (and guarded) text.
fn extract_parsed(
    source: &str,
    text: &str,
    too_deep: &[guard::TooDeep],
    parsed: &ruff_python_parser::Parsed<ruff_python_ast::Mod>,
    want: Want,
    memo: Option<&mut Memo>,
) -> Outcome {
    let Want {
        options,
        limit,
        faithful_too,
    } = want;
    let slug = options
        .slug
        .clone()
        .unwrap_or_else(|| slug_from_path(&options.file));
    let map = SourceMap::new(text, parsed.tokens());
    let mut extraction = Extraction {
        version: CONTRACT_VERSION,
        file: options.file.clone(),
        slug: slug.clone(),
        stage: options.stage,
        solution_names: Vec::new(),
        bindings: Vec::new(),
        warning_filters: Vec::new(),
        logging: None,
        assertions: Vec::new(),
        findings: Vec::new(),
        syntax_errors: syntax_errors(&map, too_deep, parsed.errors()),
    };
    // The faithful extraction of the same text, built from the same parts, when asked for.
    let faithful_of = |e: &Extraction| {
        (faithful_too && options.stage != Stage::Full).then(|| Extraction {
            stage: Stage::Full,
            ..e.clone()
        })
    };
    let ruff_python_ast::Mod::Module(module) = parsed.syntax() else {
        return Outcome {
            faithful: faithful_of(&extraction),
            extraction,
            over_limit: false,
        };
    };
    let body = &module.body;
    // CPython also refuses what ruff's parser accepts: a starred value standing alone.
    let starred = misplaced_starred(body);
    extraction
        .syntax_errors
        .extend(starred.iter().map(|range| starred_error(&map, *range)));
    // And `async for` / `async with` outside an `async def`.
    let not_async = async_outside_async_function(body);
    extraction
        .syntax_errors
        .extend(not_async.iter().map(|&e| async_outside_error(&map, e)));
    let error_ranges: Vec<TextRange> = parsed
        .errors()
        .iter()
        .map(|e| e.location)
        .chain(starred.iter().copied())
        .chain(not_async.iter().map(|(range, _)| *range))
        .collect();
    let strategy = options.config().and_then(|c| {
        c.options
            .iter()
            .find(|(k, _)| k == "parametrize_long_str_id_strategy")
            .map(|(_, v)| v.join(" "))
    });
    let long_str = crate::pytest::ids::LongStrIds::of(options.pytest_version, strategy.as_deref());
    let escaping = crate::pytest::ids::EscapeMode::of(
        options
            .config()
            .and_then(|c| {
                c.options
                    .iter()
                    .rev()
                    .find(|(k, _)| k == crate::pytest::ids::NO_ESCAPING_KEY)
            })
            .map(|(_, v)| v.join(" "))
            .as_deref(),
    );
    let scope = module_scope(body, &map, options, &error_ranges, (&long_str, &escaping));
    let collect::Collected {
        mut cases,
        unlisted,
        collects_nothing,
    } = collect::collect(body, &scope, &map, &long_str, &escaping);
    let judgement = options
        .config()
        .map(|c| crate::pytest::config::judge_at(c, options.pytest_version))
        .unwrap_or_default();
    let warning_plan = session::apply(
        &judgement,
        body,
        &scope,
        &map,
        &test_module_name(options),
        &mut cases,
    );
    let ctx = Ctx {
        errors: &error_ranges,
        scope: &scope,
        map: &map,
        slug: &slug,
        shared_params: Default::default(),
        written: Default::default(),
        write_limit: limit,
        reserved_global: Default::default(),
        log_level_set: judgement
            .logging
            .as_ref()
            .is_some_and(|l| l.root_level.is_some()),
    };
    let mut plan = memo.map(|memo| {
        let analysis = crate::incremental::Analysis {
            text,
            options,
            slug: &slug,
            body,
            scope: &scope,
            has_errors: !error_ranges.is_empty() || !too_deep.is_empty(),
            non_ascii_names: !text.is_ascii()
                && parsed.tokens().iter().any(|t| {
                    t.kind() == ruff_python_ast::token::TokenKind::Name
                        && !text[ruff_text_size::Ranged::range(t)].is_ascii()
                }),
        };
        (memo.plan(&analysis), memo)
    });
    let (full, solution_names) = flatten_cases(&ctx, &cases, plan.as_mut().map(|(p, _)| p));
    if let Some((plan, memo)) = plan {
        memo.finish(plan);
    }
    if ctx.over_budget() {
        return Outcome {
            extraction,
            faithful: None,
            over_limit: true,
        };
    }
    extraction.solution_names = solution_names;
    let helpers = helper_asserts(body, &cases, &unlisted);
    let called = read_names(body);

    // One stage's extraction from the shared parts and its assertions.
    let finish = |mut e: Extraction, stage: Stage, assertions: Vec<crate::model::Assertion>| {
        e.stage = stage;
        e.assertions = assertions;
        // Asserts the depth guard removed are still asserts of their tests: report them as dropped.
        for deep in too_deep.iter().filter(|d| d.is_assert) {
            let owners = deep_assert_owners(stage, body, &cases, deep);
            e.assertions.extend(
                owners
                    .into_iter()
                    .map(|test| too_deep_assert(source, &map, deep, test)),
            );
        }
        e.assertions.sort_shared_by_key(|a| a.span.start);
        if stage == Stage::Full {
            if let Some(first) = e.syntax_errors.first().cloned() {
                e.assertions
                    .iter_mut()
                    .for_each(|a| refuse_for_syntax_error(a, &first));
            }
        }
        e.bindings = bindings(stage, &scope, &e, options);
        if stage == Stage::Full {
            apply_warning_plan(&mut e, &warning_plan);
            if e.kept().next().is_some() {
                e.logging = judgement.logging.clone();
                let prepend = crate::pytest::config::import_mode_is_prepend(options.config());
                if conftest_imports_solution(options, prepend) {
                    e.logging
                        .get_or_insert_with(Default::default)
                        .before_session = true;
                }
            }
        }
        let at_import = called_at_import(body);
        let config_names = options
            .config()
            .and_then(crate::pytest::config::CollectedNames::of);
        e.findings = findings(
            body,
            &e,
            &scope,
            &map,
            &helpers,
            &called,
            &at_import,
            config_names.as_ref(),
        );
        if stage == Stage::Full {
            e.findings
                .extend(unlisted.iter().map(|u| unlisted_finding(&scope, &map, u)));
            e.findings
                .extend(crate::unittest::unknown_classes(body, &map));
            e.findings
                .extend(crate::unittest::helper_method_findings(body, &map, &called));
            if judgement.doctest_modules {
                e.findings
                    .extend(crate::unseen::doctest_findings(body, &map));
            }
            let mut runs: Vec<(&ast::StmtFunctionDef, u32)> = Vec::new();
            let mut index: HashMap<TextRange, usize> = HashMap::default();
            for case in &cases {
                match index.get(&case.func.range) {
                    Some(&i) => runs[i].1 += 1,
                    None => {
                        index.insert(case.func.range, runs.len());
                        runs.push((case.func, 1));
                    }
                }
            }
            e.findings.extend(crate::unseen::findings(
                body,
                &runs,
                &called,
                &scope,
                &map,
                &e.assertions,
            ));
            e.findings.extend(crate::unseen::conftest_fixture_findings(
                body,
                &runs,
                &options.conftests,
                &map,
            ));
            if let Some(why) = warning_plan
                .collects_nothing
                .as_ref()
                .or(collects_nothing.as_ref())
            {
                no_checks(&mut e, why);
            }
            e.findings.sort_shared_by_key(|f| f.line);
        }
        e
    };
    match options.stage {
        Stage::Full => Outcome {
            extraction: finish(extraction, Stage::Full, full),
            faithful: None,
            over_limit: false,
        },
        stage => {
            let staged = legacy::extract(stage, body, &scope, &map, &full, &helpers);
            let faithful = faithful_of(&extraction).map(|e| finish(e, Stage::Full, full));
            Outcome {
                extraction: finish(extraction, stage, staged),
                faithful,
                over_limit: false,
            }
        }
    }
}

/// A file pytest collects no test of (it refuses the configuration, or the file's collection
/// fails): pytest makes none of its checks, so none is an entry and none is counted unseen. Each
/// assert or check the tests would make is a finding naming why (`why`'s rule), not counted.
fn no_checks(e: &mut Extraction, why: &crate::rules::Reason) {
    let mut seen = rustc_hash::FxHashSet::default();
    let entries = std::mem::take(&mut e.assertions);
    // The findings of tests dropped for this reason (`dropped_test_findings`) say it again.
    let rule = Some(why.rule.reference());
    e.findings.retain(|f| f.rule != rule);
    for a in &entries {
        if !seen.insert(a.span.start) {
            continue;
        }
        let cases = entries
            .iter()
            .filter(|b| b.span.start == a.span.start)
            .count();
        let place = if cases > 1 {
            format!(
                "`{}` and {} other case{}",
                a.test,
                cases - 1,
                if cases == 2 { "" } else { "s" }
            )
        } else {
            format!("`{}`", a.test)
        };
        e.findings.push(crate::model::Finding {
            shape: crate::shape::Shape::HelperAssertion,
            rule: Some(why.rule.reference()),
            line: a.line,
            message: format!("`{}` in {place} is no check pytest makes: {why}", a.source),
            unseen: 0,
        });
    }
    if entries.is_empty() {
        e.findings.push(crate::model::Finding {
            shape: crate::shape::Shape::HelperAssertion,
            rule: Some(why.rule.reference()),
            line: 1,
            message: format!("pytest makes no check of this file: {why}"),
            unseen: 0,
        });
    }
    for f in e.findings.iter_mut().filter(|f| f.unseen > 0) {
        f.unseen = 0;
        f.message
            .push_str("; but pytest collects no test of this file, so it makes none of these checks (not counted)");
    }
}

/// The warning filters the evaluator applies (the configuration's, and each kept check's marks'),
/// where a kept check needs them.
fn apply_warning_plan(e: &mut Extraction, plan: &session::WarningPlan) {
    let mut needed = false;
    for a in e.assertions.iter_mut() {
        if a.status != crate::model::Status::Kept {
            continue;
        }
        if let Some(filters) = plan.marks.get(&a.test) {
            needed = true;
            a.warning_filters = filters.iter().map(|f| f.to_contract()).collect();
        }
    }
    if needed {
        e.warning_filters = plan.config.iter().map(|f| f.to_contract()).collect();
    }
}

/// What the file's names mean, with what its conftests do and what the solution defines.
fn module_scope<'a>(
    body: &'a [Stmt],
    map: &SourceMap,
    options: &Options,
    error_ranges: &[TextRange],
    ids: (
        &crate::pytest::ids::LongStrIds,
        &crate::pytest::ids::EscapeMode,
    ),
) -> ModuleScope<'a> {
    let prepend = crate::pytest::config::import_mode_is_prepend(options.config());
    // pytest imported the solution before the file's code runs when a conftest or the test's
    // own package imported it first.
    let after_solution = imports_solution_first(options, prepend);
    let mut scope = ModuleScope::analyse(
        body,
        map,
        &options.solution_modules,
        error_ranges,
        after_solution,
        Some(crate::flatten::namespace_replay),
    );
    crate::conftest::apply(
        &mut scope,
        (body, map),
        &options.conftests,
        &options.solution_modules,
        prepend,
        ids,
    );
    crate::conftest::apply_package_inits(&mut scope, &options.package_inits);
    scope
}

/// Whether pytest has imported a solution module before the test file's own code runs: a
/// conftest (pytest imports every one from the rootdir down before the test module) or a package
/// `__init__.py` imports it at its top level, or (in the `prepend` import mode) the test or a
/// conftest sits inside a solution package, which is imported before its submodules.
fn imports_solution_first(options: &crate::Options, prepend: bool) -> bool {
    imports_solution(
        options,
        options.conftests.iter().chain(&options.package_inits),
        prepend,
    )
}

/// Whether a `conftest.py` imports a solution module (as `imports_solution_first`): pytest
/// imports the conftests of the test's folder and the folders above it before its session starts
/// (`pytest_load_initial_conftests`, before `pytest_configure` registers the logging plugin), so
/// the solution's import-time logging configuration meets no handler of pytest's.
fn conftest_imports_solution(options: &crate::Options, prepend: bool) -> bool {
    imports_solution(options, options.conftests.iter(), prepend)
}

fn imports_solution<'c>(
    options: &crate::Options,
    files: impl Iterator<Item = &'c crate::conftest::Conftest> + Clone,
    prepend: bool,
) -> bool {
    let is_solution = |module: &str| {
        std::iter::once("solution")
            .chain(options.solution_modules.iter().map(String::as_str))
            .any(|m| module == m || module.strip_prefix(m).is_some_and(|r| r.starts_with('.')))
    };
    let files = || files.clone();
    if prepend && files().any(|f| f.package.as_deref().is_some_and(is_solution)) {
        return true;
    }
    files().any(|f| {
        let Ok(parsed) = parse_module(&f.source) else {
            return false;
        };
        parsed.suite().iter().any(|stmt| match stmt {
            Stmt::Import(i) => i.names.iter().any(|a| is_solution(a.name.as_str())),
            Stmt::ImportFrom(i) => {
                i.level == 0 && i.module.as_ref().is_some_and(|m| is_solution(m.as_str()))
            }
            _ => false,
        })
    })
}

/// The full stage's assertions of every case, in source order, and the solution names they call.
fn flatten_cases(
    ctx: &Ctx,
    cases: &[Case],
    mut plan: Option<&mut crate::incremental::Plan>,
) -> (Vec<crate::model::Assertion>, Vec<String>) {
    let mut solution_names = Vec::new();
    let mut full: Vec<crate::model::Assertion> = Vec::new();
    let flatten = |case: &Case, names: &mut Vec<String>| {
        let mut flat = flatten::flatten_case(ctx, case, names);
        for a in &mut flat {
            let before = a.expr.as_ref().map_or(0, String::len);
            refuse_uncompilable(a);
            // A rewritten expression may be longer than what was counted when it was written.
            let after = a.expr.as_ref().map_or(0, String::len);
            ctx.written.set(
                ctx.written
                    .get()
                    .saturating_add(after.saturating_sub(before)),
            );
        }
        flat
    };
    for case in cases {
        if ctx.over_budget() {
            break;
        }
        let flat = match plan.as_deref_mut() {
            Some(plan) => plan.case(case, &ctx.shared_params, &mut solution_names, |names| {
                flatten(case, names)
            }),
            None => flatten(case, &mut solution_names),
        };
        full.extend(flat);
    }
    solution_names.sort_shared();
    solution_names.dedup();
    full.sort_shared_by_key(|a| a.span.start);
    (full, solution_names)
}

/// The tests an assert the depth guard skipped belongs to.
fn deep_assert_owners(
    stage: Stage,
    body: &[Stmt],
    cases: &[Case],
    deep: &guard::TooDeep,
) -> Vec<String> {
    let at = TextSize::new(deep.start as u32);
    match stage {
        Stage::Full => cases
            .iter()
            .filter(|c| c.func.range.contains(at))
            .map(|c| c.id.clone())
            .collect(),
        _ => enclosing_function(body, at, "").into_iter().collect(),
    }
}

/// An assert the depth guard skipped, reported as dropped for `test`.
fn too_deep_assert(
    source: &str,
    map: &SourceMap,
    deep: &guard::TooDeep,
    test: String,
) -> crate::model::Assertion {
    let at = TextSize::new(deep.start as u32);
    let range = TextRange::new(at, TextSize::new(deep.end as u32));
    let (line, column) = map.line_column(at);
    crate::model::Assertion {
        test,
        line,
        column,
        source: source[deep.start..deep.end]
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(80)
            .collect(),
        status: crate::model::Status::Dropped,
        expr: None,
        reason: Some(format!(
            "it nests more than {} levels deep; the extractor skipped it to protect the page",
            guard::MAX_DEPTH
        )),
        rule: Some(Rule::from(Evaluator::NestedTooDeep).reference()),
        unresolved: Some(Vec::new()),
        shapes: Vec::new(),
        span: map.span(range),
        origins: Vec::new(),
        warning_filters: Vec::new(),
    }
}

/// The qualified name (`Class::method`) of the function whose body holds `at`.
fn enclosing_function(body: &[Stmt], at: TextSize, prefix: &str) -> Option<String> {
    for stmt in body {
        match stmt {
            Stmt::FunctionDef(f) if f.range.contains(at) => {
                let name = format!("{prefix}{}", f.name);
                return enclosing_function(&f.body, at, &format!("{name}::")).or(Some(name));
            }
            Stmt::ClassDef(c) if c.range.contains(at) => {
                return enclosing_function(&c.body, at, &format!("{prefix}{}::", c.name));
            }
            _ => {}
        }
    }
    None
}

/// pytest cannot import a file with a syntax error anywhere in it: it fails to collect the file and
/// runs none of its tests, so no check of it is kept (what parses is still shown, as dropped).
fn refuse_for_syntax_error(a: &mut crate::model::Assertion, error: &crate::model::SyntaxError) {
    if a.status != crate::model::Status::Kept {
        return;
    }
    a.expr = None;
    a.status = crate::model::Status::Dropped;
    a.reason = Some(format!(
        "the file has a syntax error on line {} ({}): pytest cannot import it, so it runs none of its tests",
        error.line, error.message
    ));
    a.rule = Some(Rule::from(crate::rules::ModuleCode::SyntaxErrorInStatement).reference());
    a.unresolved = Some(Vec::new());
    a.warning_filters = Vec::new();
}

/// A kept expression CPython would refuse to compile (an assignment expression a helper brought
/// into a comprehension's iterable) is written without it where that is exact
/// (`unwalrus::without_walrus_in_iterables`), else dropped, saying so.
fn refuse_uncompilable(a: &mut crate::model::Assertion) {
    let Some(why) = a.expr.as_deref().and_then(crate::portable::compile_error) else {
        return;
    };
    if let Some(rewritten) = a
        .expr
        .as_deref()
        .and_then(crate::unwalrus::without_walrus_in_iterables)
    {
        a.expr = Some(rewritten);
        return;
    }
    a.expr = None;
    a.status = crate::model::Status::Dropped;
    a.reason = Some(format!(
        "once flattened it has {why}, which CPython refuses to compile"
    ));
    a.rule = Some(Rule::from(Evaluator::Uncompilable).reference());
    a.unresolved = Some(Vec::new());
}
