//! The entry point: one pytest file in, one [`Extraction`] out.

use crate::rules::{Evaluator, Findings, Rule};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeMap;

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{self as ast, Stmt};
use ruff_python_parser::{Mode, ParseOptions};
use ruff_text_size::{TextRange, TextSize};

use crate::collect;
use crate::flatten::{self, Ctx};
use crate::guard;
use crate::incremental::Memo;
use crate::legacy;
use crate::model::{Extraction, Finding, Stage, SyntaxError, CONTRACT_VERSION};
use crate::module::{Global, ModuleScope};
use crate::shape::Shape;
use crate::source::SourceMap;

/// What to extract and how.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The file's name as reported in the output.
    pub file: String,
    /// The problem's slug; derived from `file` when absent.
    pub slug: Option<String>,
    /// Extra module names whose imports count as the solution (`--solution-module`).
    pub solution_modules: Vec<String>,
    pub stage: Stage,
    /// The `conftest.py` files pytest imports for this file, from the rootdir down.
    pub conftests: Vec<crate::conftest::Conftest>,
    /// The package `__init__.py` files pytest imports before the test module (the test's folder
    /// and each folder above it that holds one, outermost first): their import-time code runs
    /// before every test of the file.
    pub package_inits: Vec<crate::conftest::Conftest>,
    /// pytest's configuration file for this file (`pytest.ini`, `pyproject.toml`, …), when the
    /// caller found one: its options may drop every test or deselect some
    /// (`bench_explorer::pytest_config`).
    pub pytest_config: Option<crate::pytest::config::Config>,
    /// The pytest version whose ids the extraction follows (9.0 by default; 9.2 names a long
    /// string by its argname and index).
    pub pytest_version: crate::pytest::ids::PytestVersion,
}

impl Options {
    pub fn new(file: impl Into<String>) -> Self {
        Options {
            file: file.into(),
            ..Options::default()
        }
    }
}

/// The slug a test file's path implies: `test_word_ladder.py` → `word_ladder`; a file named just
/// `test.py` / `tests.py` takes its folder's name.
pub fn slug_from_path(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut parts = path.rsplit('/');
    let file = parts.next().unwrap_or("");
    let stem = file.strip_suffix(".py").unwrap_or(file);
    let folder = parts.next().unwrap_or("");
    let slug = if let Some(rest) = stem.strip_prefix("test_") {
        rest
    } else if let Some(rest) = stem.strip_suffix("_test") {
        rest
    } else if matches!(stem, "test" | "tests" | "" | "-") && !folder.is_empty() {
        folder
    } else {
        stem
    };
    slug.to_string()
}

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
    let error_ranges: Vec<TextRange> = parsed
        .errors()
        .iter()
        .map(|e| e.location)
        .chain(starred.iter().copied())
        .collect();
    let scope = module_scope(body, &map, options, &error_ranges);
    let strategy = options.pytest_config.as_ref().and_then(|c| {
        c.options
            .iter()
            .find(|(k, _)| k == "parametrize_long_str_id_strategy")
            .map(|(_, v)| v.join(" "))
    });
    let long_str = crate::pytest::ids::LongStrIds::of(options.pytest_version, strategy.as_deref());
    let (mut cases, unlisted) = collect::collect(body, &scope, &map, &long_str);
    let judgement = options
        .pytest_config
        .as_ref()
        .map(crate::pytest::config::judge)
        .unwrap_or_default();
    let warning_plan = crate::pytest::session::apply(
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
        e.assertions.sort_by_key(|a| a.span.start);
        e.bindings = bindings(stage, &scope, &e, options);
        if stage == Stage::Full {
            apply_warning_plan(&mut e, &warning_plan);
        }
        let at_import = called_at_import(body);
        e.findings = findings(&e, &scope, &map, &helpers, &called, &at_import);
        if stage == Stage::Full {
            e.findings
                .extend(unlisted.iter().map(|u| unlisted_finding(&map, u)));
            e.findings
                .extend(crate::unittest::unknown_classes(body, &map));
            e.findings
                .extend(crate::unittest::helper_method_findings(body, &map, &called));
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
            e.findings.sort_by_key(|f| f.line);
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

/// The warning filters the evaluator applies (the configuration's, and each kept check's marks'),
/// where a kept check needs them.
fn apply_warning_plan(e: &mut Extraction, plan: &crate::pytest::session::WarningPlan) {
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

/// The namespace the stage's kept expressions are evaluated in (contract version 2): the
/// write-up's stages keep the solution's own globals, as the loop they reproduce did; the full
/// stage lists what the test file binds from the solution, the module itself first when an
/// expression reads it.
fn bindings(
    stage: Stage,
    scope: &ModuleScope,
    e: &Extraction,
    options: &Options,
) -> Vec<crate::model::Binding> {
    use crate::model::Binding;
    let module = scope.solution_module_path().to_string();
    if stage != Stage::Full {
        return vec![Binding::Globals { module }];
    }
    // The test module's `__name__`: the evaluator's namespace is then a module of that name, as
    // the test's globals are (what a check reads as `__name__`, the `__module__` of a function it
    // creates, the module code finds by its caller's `__name__`).
    let test_module = e.kept().next().map(|_| Binding::Value {
        name: "__name__".into(),
        value: test_module_name(options),
    });
    let reads = |name: &str| {
        e.kept().any(|a| {
            a.expr.as_deref().is_some_and(|x| {
                x.match_indices(name).any(|(i, _)| {
                    let before = x[..i].chars().next_back();
                    let after = x[i + name.len()..].chars().next();
                    !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
                        && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            })
        })
    };
    let name: &str = &scope.module_binding;
    let reads_module = reads(name);
    test_module
        .into_iter()
        .chain(reads_module.then(|| Binding::Module {
            name: name.to_string(),
            module,
        }))
        // pytest's own import is made only where a check reads it (`pytest.approx`).
        .chain(
            scope
                .solution_bindings
                .iter()
                .filter(|(_, b)| !matches!(b, Binding::Import { name, .. } if !reads(name)))
                .map(|(_, b)| b.clone()),
        )
        .collect()
}

/// The name pytest imports the test module under (its default `prepend` import mode): the file's
/// stem, inside the package its folder is when it has an `__init__.py`.
fn test_module_name(options: &Options) -> String {
    let file = options.file.replace('\\', "/");
    let stem = file
        .rsplit('/')
        .next()
        .unwrap_or("")
        .trim_end_matches(".py")
        .to_string();
    match options
        .package_inits
        .last()
        .filter(|init| init.path == "__init__.py" || !init.path.contains("../"))
        .and_then(|init| init.package.as_deref())
    {
        Some(package) => format!("{package}.{stem}"),
        None => stem,
    }
}

/// The statements the depth guard skipped, then the parser's errors.
fn syntax_errors(
    map: &SourceMap,
    too_deep: &[guard::TooDeep],
    parse_errors: &[ruff_python_parser::ParseError],
) -> Vec<SyntaxError> {
    let mut syntax_errors: Vec<SyntaxError> = too_deep
        .iter()
        .map(|d| {
            let (line, column) = map.line_column(TextSize::new(d.start as u32));
            SyntaxError {
                line,
                column,
                message: format!(
                    "this statement nests more than {} levels deep; the extractor skipped it to protect the page",
                    guard::MAX_DEPTH
                ),
                start: d.start as u32,
                end: d.end as u32,
            }
        })
        .collect();
    for error in parse_errors {
        let (line, column) = map.line_column(error.location.start());
        syntax_errors.push(SyntaxError {
            line,
            column,
            message: error.error.to_string(),
            start: error.location.start().to_u32(),
            end: error.location.end().to_u32(),
        });
    }
    syntax_errors
}

fn starred_error(map: &SourceMap, range: TextRange) -> SyntaxError {
    let (line, column) = map.line_column(range.start());
    SyntaxError {
        line,
        column,
        message: "a starred expression cannot be used here (CPython refuses to compile it)".into(),
        start: range.start().to_u32(),
        end: range.end().to_u32(),
    }
}

/// What the file's names mean, with what its conftests do and what the solution defines.
fn module_scope<'a>(
    body: &'a [Stmt],
    map: &SourceMap,
    options: &Options,
    error_ranges: &[TextRange],
) -> ModuleScope<'a> {
    let prepend = crate::pytest::config::import_mode_is_prepend(options.pytest_config.as_ref());
    // pytest imported the solution before the file's code runs when a conftest or the test's
    // own package imported it first.
    let after_solution = crate::conftest::imports_solution_first(options, prepend);
    let mut scope = ModuleScope::analyse(
        body,
        map,
        &options.solution_modules,
        error_ranges,
        after_solution,
    );
    crate::conftest::apply(
        &mut scope,
        &options.conftests,
        &options.solution_modules,
        prepend,
    );
    crate::conftest::apply_package_inits(&mut scope, &options.package_inits);
    scope
}

/// The full stage's assertions of every case, in source order, and the solution names they call.
fn flatten_cases(
    ctx: &Ctx,
    cases: &[collect::Case],
    mut plan: Option<&mut crate::incremental::Plan>,
) -> (Vec<crate::model::Assertion>, Vec<String>) {
    let mut solution_names = Vec::new();
    let mut full: Vec<crate::model::Assertion> = Vec::new();
    let flatten = |case: &collect::Case, names: &mut Vec<String>| {
        let mut flat = flatten::flatten_case(ctx, case, names);
        for a in &mut flat {
            refuse_uncompilable(a);
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
    solution_names.sort();
    solution_names.dedup();
    full.sort_by_key(|a| a.span.start);
    (full, solution_names)
}

/// The tests an assert the depth guard skipped belongs to.
fn deep_assert_owners(
    stage: Stage,
    body: &[Stmt],
    cases: &[collect::Case],
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

/// A test whose node ids the file alone does not tell: nothing is emitted under an id pytest does
/// not print, and the file says so.
fn unlisted_finding(map: &SourceMap, u: &collect::Unlisted) -> Finding {
    Finding {
        shape: Shape::ParametrizedInputs,
        rule: Some(Rule::from(Findings::TestIdsUnknown).reference()),
        line: map.line(u.func.range.start()),
        message: format!(
            "`{}`: its test ids cannot be known from the file ({}), so its assertions are not listed",
            u.name, u.why
        ),
        unseen: count_asserts(&u.func.body),
    }
}

/// `x = *a`, `*a` as a statement, `assert *a`, `return *a`: a starred expression that is not an
/// element of a tuple, list or call, which CPython rejects at compile time.
fn misplaced_starred(body: &[Stmt]) -> Vec<TextRange> {
    #[derive(Default)]
    struct Finder(Vec<TextRange>);
    impl<'a> Visitor<'a> for Finder {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            let value = match stmt {
                Stmt::Assign(a) => Some(a.value.as_ref()),
                Stmt::AnnAssign(a) => a.value.as_deref(),
                Stmt::AugAssign(a) => Some(a.value.as_ref()),
                Stmt::Expr(e) => Some(e.value.as_ref()),
                Stmt::Assert(a) => Some(a.test.as_ref()),
                Stmt::Return(r) => r.value.as_deref(),
                _ => None,
            };
            if let Some(ast::Expr::Starred(s)) = value {
                self.0.push(s.range);
            }
            visitor::walk_stmt(self, stmt);
        }
        fn visit_expr(&mut self, _: &'a ast::Expr) {}
    }
    let mut finder = Finder::default();
    visitor::walk_body(&mut finder, body);
    finder.0
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

/// Every name the module reads (loads) and every attribute it reads: a function none of them names
/// is never called by the file's code.
fn read_names(body: &[Stmt]) -> HashSet<&str> {
    struct Reads<'a>(HashSet<&'a str>);
    impl<'a> Visitor<'a> for Reads<'a> {
        fn visit_expr(&mut self, expr: &'a ast::Expr) {
            match expr {
                ast::Expr::Name(n) if n.ctx == ast::ExprContext::Load => {
                    self.0.insert(n.id.as_str());
                }
                ast::Expr::Attribute(a) => {
                    self.0.insert(a.attr.as_str());
                }
                _ => {}
            }
            visitor::walk_expr(self, expr);
        }
    }
    let mut reads = Reads(HashSet::default());
    visitor::walk_body(&mut reads, body);
    reads.0
}

/// How many asserts a body holds (nested ones included).
fn count_asserts(body: &[Stmt]) -> u32 {
    struct Count(u32);
    impl<'a> Visitor<'a> for Count {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            if matches!(stmt, Stmt::Assert(_)) {
                self.0 += 1;
            }
            visitor::walk_stmt(self, stmt);
        }
    }
    let mut count = Count(0);
    visitor::walk_body(&mut count, body);
    count.0
}

/// Asserts outside any collected test: in helpers, fixtures, the loader, module level.
fn helper_asserts<'a>(
    body: &'a [Stmt],
    cases: &[collect::Case<'a>],
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
fn findings(
    extraction: &Extraction,
    scope: &ModuleScope,
    map: &SourceMap,
    helpers: &[(&ast::StmtAssert, String)],
    called: &HashSet<&str>,
    called_at_import: &HashSet<&str>,
) -> Vec<Finding> {
    // A helper's assert that an entry stands for (a test calls the helper) is no finding.
    let entries: HashSet<u32> = extraction.assertions.iter().map(|a| a.span.start).collect();
    let mut out: Vec<Finding> = helpers
        .iter()
        .filter(|(a, _)| {
            extraction.stage != Stage::Full || !entries.contains(&a.range.start().to_u32())
        })
        .map(|(a, owner)| {
            helper_finding(
                extraction.stage,
                scope,
                map,
                a,
                owner,
                called,
                called_at_import,
            )
        })
        .collect();
    out.extend(slug_mismatch_finding(extraction));
    out.extend(import_findings(extraction, scope));
    out.extend(dropped_test_findings(extraction));
    out.sort_by_key(|f| f.line);
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
fn called_at_import(body: &[Stmt]) -> HashSet<&str> {
    struct Calls<'a>(HashSet<&'a str>);
    impl<'a> Visitor<'a> for Calls<'a> {
        fn visit_stmt(&mut self, stmt: &'a Stmt) {
            match stmt {
                Stmt::FunctionDef(_) | Stmt::ClassDef(_) => {}
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
fn helper_finding(
    stage: Stage,
    scope: &ModuleScope,
    map: &SourceMap,
    a: &ast::StmtAssert,
    owner: &str,
    called: &HashSet<&str>,
    called_at_import: &HashSet<&str>,
) -> Finding {
    let line = map.line(a.range.start());
    let last = owner.rsplit('.').next().unwrap_or(owner);
    // pytest (or unittest, through pytest) calls these itself, around the tests.
    let around = RUN_AROUND_TESTS.contains(&last);
    // Whether pytest may run it: at import, in a function whose name the file reads, or around
    // the tests. The loader's own asserts check the harness, not the solution: no check of it is
    // lost.
    let reached = around || called.contains(last);
    let at_import = !around && called_at_import.contains(last);
    let unseen = owner == "<module>" || (reached && !scope.loaders.contains(owner));
    let snippet = map.snippet(a.range);
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
                "`{name}`, imported by the test file, is referenced by {count} assertion{}: the evaluation namespace is the solution's, which need not have it, so {} dropped",
                if count == 1 { "" } else { "s" },
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

/// A kept expression CPython would refuse to compile (an assignment expression a helper brought
/// into a comprehension's iterable) is dropped, saying so.
fn refuse_uncompilable(a: &mut crate::model::Assertion) {
    let Some(why) = a.expr.as_deref().and_then(crate::portable::compile_error) else {
        return;
    };
    a.expr = None;
    a.status = crate::model::Status::Dropped;
    a.reason = Some(format!(
        "once flattened it has {why}, which CPython refuses to compile"
    ));
    a.rule = Some(Rule::from(Evaluator::Uncompilable).reference());
    a.unresolved = Some(Vec::new());
}
