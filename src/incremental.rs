//! Re-extracting after an edit: each test's flattening is reused from the previous extraction
//! when nothing it reads has changed.
//!
//! ## What it does
//!
//! [`Memo`] remembers the last text, what the module-level analysis found in it (in canonical
//! form: `Digest`) and every test case's flattened assertions. Given a new text that differs
//! from the last one in one region (the editor's keystroke), [`crate::extract_with`] parses and
//! analyses the new text whole, as [`crate::extract`] does, and then, for each test case,
//! either flattens it or takes its assertions from the memo, their byte offsets moved by the edit.
//!
//! What an extraction no longer needs (the syntax tree, the memo it replaced) is set aside, not
//! freed: freeing a large file's was a tenth of a keystroke's extraction. [`Memo::release`] frees
//! it; the page's worker calls it after sending its reply, and a memo never holds more than
//! [`MAX_ASIDE`] of them.
//!
//! ## Why it is exact
//!
//! A case's flattening (`flatten::flatten_case`) is a function of the module's analysis
//! (`ModuleScope`), the case (`case::Case`), the file's syntax errors, the slug, and the
//! parametrize values earlier cases received (`Ctx::shared_params`); it reads the source text only
//! at the ranges of the syntax nodes those hold. A case is reused only when all of these are equal
//! to the previous extraction's, position for position once moved by the edit, and none of those
//! ranges touches the edited region (so the text at each is the same, and so is its syntax: see
//! below). Every field of the scope and of a case is written into the digest by an exhaustive
//! destructuring: a field added later does not compile until the digest says how to compare it.
//!
//! Conditions on the edit, checked before anything is reused:
//! - it changes no line count (line numbers are in reasons and origins: they would all move), and
//!   neither text has a carriage return (whether a `\r` ends a line depends on the byte after it);
//! - it lies in the body of one function definition (a test, a helper, a fixture, a method; it may
//!   end where the function ends), and neither text has a syntax error or a statement the depth
//!   guard skipped: then every statement outside that function has the same tokens, so the same
//!   syntax tree. The whole function then counts as edited: nothing a reused case reads may lie in
//!   it;
//! - the options carry no conftests, solution globals or configuration (the page's case), whose
//!   code could name anything.
//!
//! One entry of the scope may differ: the module-level name of the edited function itself (a plain
//! function's entry holds its definition, which the edit changed). That is sound only if no
//! flattening can look that entry up: flattening looks names up only as they are spelled in the
//! file, so the name must occur in neither text outside the edited function, and no name may be
//! spelled with non-ASCII characters (Python normalizes those: `ｈelper` is `helper`).
//!
//! `tests/properties/incremental*.rs` check on every fixture, bench, review and generated file,
//! with thousands of random edits, two outside reviews' cases and sweeps of every one-character
//! edit of three files, that [`crate::extract_with`] gives exactly what [`crate::extract`] gives.
//!
//! ## Example
//!
//! Typing a digit into an assert of one test of a 2,000-line file flattens that test's cases again
//! and moves the other 600 assertions by one byte.

use crate::sort::SharedSort as _;
use ruff_python_ast::{self as ast, Stmt};
use ruff_text_size::{Ranged, TextRange};
use rustc_hash::FxHashMap as HashMap;

use crate::case::Case;
use crate::model::{Assertion, Span};
use crate::module::{Fixture, Global, ModuleScope, PreludeStmt};
use crate::names::{Rendered, Replacement};
use crate::options::Options;

/// What the last extraction leaves for the next one.
#[derive(Default)]
pub struct Memo {
    last: Option<Last>,
    stats: Reuse,
    /// What the last extractions no longer need, to be freed by [`Memo::release`] (the
    /// previous memo, a syntax tree): freeing them took a tenth of a keystroke's extraction.
    aside: Vec<Box<dyn std::any::Any>>,
}

/// How the last [`crate::extract_with`] went: how many cases it reused and flattened, and, when
/// it reused none, why.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reuse {
    pub reused: usize,
    pub flattened: usize,
    pub why_not: Option<&'static str>,
}

impl Memo {
    pub fn new() -> Memo {
        Memo::default()
    }

    pub fn last_reuse(&self) -> &Reuse {
        &self.stats
    }

    /// Forget the last extraction (the next one flattens every case).
    pub fn clear(&mut self) {
        self.last = None;
        self.aside.clear();
    }

    /// Free what the last extractions set aside. A caller that waits for its result (the page's
    /// worker) calls this after it has sent the result; one that does not never holds more than
    /// [`MAX_ASIDE`] of them.
    pub fn release(&mut self) {
        self.aside.clear();
    }

    /// How many things are waiting for [`Memo::release`] (at most [`MAX_ASIDE`]).
    pub fn set_aside_count(&self) -> usize {
        self.aside.len()
    }

    /// Keep `garbage` to be freed later, by [`Memo::release`].
    pub(crate) fn set_aside(&mut self, garbage: Box<dyn std::any::Any>) {
        if self.aside.len() >= MAX_ASIDE {
            self.aside.clear();
        }
        self.aside.push(garbage);
    }
}

/// Things set aside before a [`Memo`] frees them without waiting for [`Memo::release`].
pub const MAX_ASIDE: usize = 4;

struct Last {
    text: String,
    options: (
        String,
        Option<String>,
        Vec<String>,
        crate::pytest::ids::PytestVersion,
    ),
    /// `None` when the last text cannot be a base (syntax errors, no memo for its options).
    base: Option<Base>,
}

struct Base {
    scope: ScopeDigest,
    cases: Cases,
}

/// A case's flattening, with what it needs to be replayed.
struct CaseMemo {
    /// `Ctx::shared_params` before the case, and what the case added.
    params_before: Vec<(u32, u32)>,
    params_added: Vec<(u32, u32)>,
    solution_names: Vec<String>,
    out: Vec<Assertion>,
}

// ---- the edit ------------------------------------------------------------------------------------

/// The one region in which `old` and `new` differ (their common prefix and suffix are kept):
/// `old[start..old_end]` became `new[start..new_end]`. Byte offsets.
pub fn changed_region(old: &str, new: &str) -> (usize, usize, usize) {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let prefix = o.iter().zip(n).take_while(|(a, b)| a == b).count();
    let max_suffix = o.len().min(n.len()) - prefix;
    let suffix = o
        .iter()
        .rev()
        .zip(n.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, o.len() - suffix, n.len() - suffix)
}

/// One changed region: `old[start..old_end]` became `new[start..new_end]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edit {
    start: u32,
    old_end: u32,
    new_end: u32,
}

impl Edit {
    pub(crate) fn between(old: &str, new: &str) -> Edit {
        let (start, old_end, new_end) = changed_region(old, new);
        Edit {
            start: start as u32,
            old_end: old_end as u32,
            new_end: new_end as u32,
        }
    }

    /// No edit: the same text.
    fn none() -> Edit {
        Edit {
            start: u32::MAX,
            old_end: u32::MAX,
            new_end: u32::MAX,
        }
    }

    /// This edit, widened to `[start, new_end)` of the new text (a region that contains it).
    fn widened(&self, start: u32, new_end: u32) -> Edit {
        let d = self.delta();
        Edit {
            start,
            new_end,
            old_end: (new_end as i64 - d) as u32,
        }
    }

    fn delta(&self) -> i64 {
        self.new_end as i64 - self.old_end as i64
    }

    /// A range of the new text, as it was in the old one; `None` if it touches the edited region
    /// (its text, or the tokens at its ends, may have changed).
    fn back(&self, a: u32, b: u32) -> Option<(u32, u32)> {
        if b < self.start {
            Some((a, b))
        } else if a > self.new_end {
            let d = self.delta();
            Some(((a as i64 - d) as u32, (b as i64 - d) as u32))
        } else {
            None
        }
    }

    /// [`Edit::back`], for the range of a statement that may enclose the edit: one that is the
    /// edited region or contains it moves its end.
    fn back_outer(&self, a: u32, b: u32) -> Option<(u32, u32)> {
        if a <= self.start && b >= self.new_end && self.start != u32::MAX {
            Some((a, (b as i64 - self.delta()) as u32))
        } else {
            self.back(a, b)
        }
    }

    /// A span of the old text moved to the new one; `None` if it touches the edited region,
    /// unless it contains it strictly (a function's span around the edit: its end moves).
    fn forward(&self, s: &Span) -> Option<Span> {
        let d = self.delta();
        let at = |v: u32| (v as i64 + d) as u32;
        if s.end < self.start {
            Some(*s)
        } else if s.start > self.old_end {
            Some(Span {
                start: at(s.start),
                end: at(s.end),
                ..*s
            })
        } else if s.start < self.start && s.end > self.old_end {
            Some(Span {
                end: at(s.end),
                ..*s
            })
        } else {
            None
        }
    }

    fn move_assertion(&self, a: &Assertion) -> Option<Assertion> {
        let span = self.forward(&a.span)?;
        let mut origins = a.origins.clone();
        for o in &mut origins {
            o.span = self.forward(&o.span)?;
        }
        Some(Assertion {
            span,
            origins,
            ..a.clone()
        })
    }
}

// ---- digests -------------------------------------------------------------------------------------

/// A canonical form of some analysis: its bytes, with the source ranges it holds listed apart so
/// that two digests can be compared across an edit (`same`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Digest {
    bytes: Vec<u8>,
    /// Start, end, and whether the range is a statement's that may enclose the edit.
    ranges: Vec<(u32, u32, bool)>,
}

impl Digest {
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.bytes.extend_from_slice(s.as_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }
    fn tag(&mut self, t: u8) {
        self.bytes.push(t);
    }
    fn bool(&mut self, b: bool) {
        self.bytes.push(b as u8);
    }
    fn range(&mut self, r: TextRange) {
        self.bytes.push(0xfe);
        self.ranges
            .push((r.start().to_u32(), r.end().to_u32(), false));
    }
    fn outer(&mut self, r: TextRange) {
        self.bytes.push(0xfd);
        self.ranges
            .push((r.start().to_u32(), r.end().to_u32(), true));
    }
    fn node(&mut self, n: &impl Ranged) {
        self.range(n.range());
    }
    fn strs<'s>(&mut self, items: impl IntoIterator<Item = &'s String>) {
        let mut v: Vec<&String> = items.into_iter().collect();
        v.sort_shared();
        self.u32(v.len() as u32);
        for s in v {
            self.str(s);
        }
    }
    fn rendered(&mut self, r: &Rendered) {
        let Rendered { text, prec, free } = r;
        self.str(text);
        self.str(&format!("{prec:?}"));
        self.u32(free.len() as u32);
        for f in free {
            self.str(f);
        }
    }

    /// Whether `new` (of the new text) is `old` (of the old text) moved by `edit`, touching nothing
    /// it changed.
    fn same(old: &Digest, new: &Digest, edit: &Edit) -> bool {
        old.bytes == new.bytes && Digest::same_ranges(&old.ranges, &new.ranges, edit)
    }

    fn same_ranges(old: &[(u32, u32, bool)], new: &[(u32, u32, bool)], edit: &Edit) -> bool {
        old.len() == new.len()
            && old.iter().zip(new).all(|(o, n)| {
                let back = if n.2 {
                    edit.back_outer(n.0, n.1)
                } else {
                    edit.back(n.0, n.1)
                };
                back == Some((o.0, o.1)) && o.2 == n.2
            })
    }
}

/// The module's analysis: each module-level name's meaning apart (one may differ: see the module
/// docs), the rest together.
struct ScopeDigest {
    globals: HashMap<String, Digest>,
    rest: Digest,
    non_ascii_names: bool,
}

fn global_digest(g: &Global) -> Digest {
    let mut d = Digest::default();
    match g {
        Global::SolutionModule => d.tag(0),
        Global::SolutionName { name } => {
            d.tag(1);
            d.str(name);
        }
        Global::Constant {
            value,
            source,
            range,
        } => {
            d.tag(2);
            d.rendered(value);
            d.node(*source);
            d.range(*range);
        }
        Global::Import {
            module,
            line,
            stdlib,
        } => {
            d.tag(3);
            d.str(module);
            d.u32(*line);
            d.bool(stdlib.is_some());
            d.str(stdlib.as_deref().unwrap_or(""));
        }
        Global::Helper { kind, line, def } => {
            d.tag(4);
            d.str(kind);
            d.u32(*line);
            d.bool(def.is_some());
            if let Some(def) = def {
                d.node(*def);
            }
        }
        Global::Computed { line, why } => {
            d.tag(5);
            d.u32(*line);
            d.str(why.rule.code());
            d.str(&why.text);
        }
    }
    d
}

fn scope_digest(a: &Analysis) -> ScopeDigest {
    let (scope, slug, body) = (a.scope, a.slug, a.body);
    let ModuleScope {
        loaders,
        solution_modules,
        globals,
        fixtures,
        inert_classes,
        quiet_classes,
        mark_aliases,
        global_barriers,
        star_import,
        other_star_import,
        pickle_on_literals,
        fixture_functions,
        pytest_aliases,
        shared_changes,
        module_skip,
        conftest_defs,
        prelude,
        prelude_names,
        imported_from_solution,
        solution_bindings,
        import_reads,
        // Empty once the scope is settled (`settle_import_reads`).
        import_read_exprs: _,
        star_after_code,
        pytest_before_star,
        current: _,
        module_binding,
        conftest_replays,
        after_solution,
        constants,
    } = scope;
    let mut d = Digest::default();
    d.str(slug);
    d.strs(loaders);
    d.strs(solution_modules);
    d.strs(inert_classes);
    d.strs(quiet_classes);
    d.strs(mark_aliases);
    let mut names: Vec<&String> = fixtures.keys().collect();
    names.sort_shared();
    d.u32(names.len() as u32);
    for name in names {
        d.str(name);
        match &fixtures[name] {
            Fixture::Value {
                expr,
                params,
                defaults,
                range,
            } => {
                d.tag(0);
                d.node(*expr);
                d.u32(params.len() as u32);
                for p in params {
                    d.str(p);
                }
                d.u32(defaults.len() as u32);
                for (p, default) in defaults {
                    d.str(p);
                    d.node(*default);
                }
                d.range(*range);
            }
            Fixture::SolutionModule => d.tag(1),
            Fixture::Conftest {
                text,
                alone,
                constants,
                params,
                reads,
                label,
            } => {
                d.tag(3);
                d.str(text);
                d.str(alone);
                d.u32(constants.len() as u32);
                for (name, value, n) in constants {
                    d.str(name);
                    d.str(value);
                    d.u32(*n as u32);
                }
                d.strs(params);
                d.strs(reads);
                d.str(label);
            }
            Fixture::Unsupported { why } => {
                d.tag(2);
                d.str(why.rule.code());
                d.str(&why.text);
            }
        }
    }
    d.u32(global_barriers.len() as u32);
    for (line, what) in global_barriers {
        d.u32(*line);
        d.str(what.rule.code());
        d.str(&what.text);
    }
    d.bool(*star_import);
    d.bool(*other_star_import);
    d.bool(*pickle_on_literals);
    d.strs(fixture_functions);
    let mut aliases: Vec<(&String, &String)> = pytest_aliases.iter().collect();
    aliases.sort_shared();
    d.u32(aliases.len() as u32);
    for (k, v) in aliases {
        d.str(k);
        d.str(v);
    }
    d.u32(shared_changes.len() as u32);
    for r in shared_changes {
        d.range(*r);
    }
    d.bool(module_skip.is_some());
    if let Some((line, what)) = module_skip {
        d.u32(*line);
        d.str(what.rule.code());
        d.str(&what.text);
    }
    d.u32(conftest_defs.len() as u32);
    for (k, v) in conftest_defs {
        d.str(k);
        d.str(&format!("{v:?}"));
    }
    d.u32(prelude.len() as u32);
    for p in prelude {
        match p {
            PreludeStmt::Stmt { stmt, inert } => {
                d.tag(0);
                d.node(*stmt);
                d.bool(*inert);
            }
            PreludeStmt::ParamList { list } => {
                d.tag(1);
                d.node(*list);
            }
            PreludeStmt::Read { expr } => {
                d.tag(2);
                d.node(*expr);
            }
        }
    }
    d.strs(prelude_names);
    d.u32(imported_from_solution.len() as u32);
    for (a, b) in imported_from_solution {
        d.str(a);
        d.str(b);
    }
    // The bindings are the file's imports (hashed with its statements); the module's name is
    // chosen from every identifier of the file, so an edit anywhere may change it.
    d.u32(solution_bindings.len() as u32);
    d.u32(import_reads.len() as u32);
    for r in import_reads {
        d.str(&r.attr);
        d.u32(r.line);
    }
    d.u32(star_after_code.unwrap_or(0));
    d.u32(pytest_before_star.unwrap_or(0));
    d.str(module_binding);
    d.u32(conftest_replays.len() as u32);
    for c in conftest_replays {
        d.str(&c.label);
        d.str(&c.text);
        d.u32(c.line);
    }
    d.bool(*after_solution);
    let mut consts: Vec<(&String, &Replacement)> = constants.iter().collect();
    consts.sort_shared_by(|a, b| a.0.cmp(b.0));
    d.u32(consts.len() as u32);
    for (k, v) in consts {
        d.str(k);
        match v {
            Replacement::Value(r) => {
                d.tag(0);
                d.rendered(r);
            }
            Replacement::SolutionModule(b) => {
                d.tag(1);
                d.str(b.as_deref().unwrap_or_default());
            }
        }
    }
    // The statements' extents: outside the edited function, the same tokens (module docs).
    structure(body, &mut d);
    ScopeDigest {
        globals: globals
            .iter()
            .map(|(k, g)| (k.clone(), global_digest(g)))
            .collect(),
        rest: d,
        non_ascii_names: a.non_ascii_names,
    }
}

/// The ranges of the module's statements and of those of its classes, at any depth (not of the
/// statements inside a function: the edited function's are its cases', flattened again).
fn structure(body: &[Stmt], d: &mut Digest) {
    d.u32(body.len() as u32);
    for stmt in body {
        match stmt {
            Stmt::ClassDef(c) => {
                d.tag(1);
                d.outer(c.range);
                structure(&c.body, d);
            }
            Stmt::FunctionDef(f) => {
                d.tag(2);
                d.outer(f.range);
            }
            other => {
                d.tag(3);
                d.node(other);
            }
        }
    }
}

/// The function definition (at module level, or in a class) whose body contains the region (it
/// may end the function: what it typed is then the end of the function's last statement).
fn enclosing_function(body: &[Stmt], start: u32, end: u32) -> Option<&ast::StmtFunctionDef> {
    for stmt in body {
        let r = stmt.range();
        if r.end().to_u32() < start || r.start().to_u32() > end {
            continue;
        }
        return match stmt {
            Stmt::ClassDef(c) => enclosing_function(&c.body, start, end),
            Stmt::FunctionDef(f) => {
                let body_start = f.body.first()?.range().start().to_u32();
                (body_start < start && r.end().to_u32() >= end).then_some(f)
            }
            _ => None,
        };
    }
    None
}

fn case_digest(case: &Case) -> Digest {
    let Case {
        id,
        func,
        is_method,
        unittest,
        unittest_setup,
        params,
        param_ranges,
        not_run,
        parametrized,
        setup,
        class_fixtures,
        fixture_values,
    } = case;
    let mut d = Digest::default();
    d.str(id);
    d.node(*func);
    d.bool(*is_method);
    d.bool(*unittest);
    d.bool(unittest_setup.is_some());
    if let Some(s) = unittest_setup {
        d.node(*s);
    }
    d.u32(params.len() as u32);
    for (name, expr) in params {
        d.str(name);
        d.node(*expr);
    }
    d.u32(param_ranges.len() as u32);
    for r in param_ranges {
        d.range(*r);
    }
    d.bool(not_run.is_some());
    d.str(not_run.as_ref().map_or("", |r| r.rule.code()));
    d.str(not_run.as_ref().map_or("", |r| r.as_str()));
    d.bool(*parametrized);
    d.u32(setup.len() as u32);
    for (line, what) in setup {
        d.u32(*line);
        d.str(what.rule.code());
        d.str(what.as_str());
    }
    d.u32(class_fixtures.len() as u32);
    for (name, line) in class_fixtures {
        d.str(name);
        d.u32(*line);
    }
    d.u32(fixture_values.len() as u32);
    for (name, value, r) in fixture_values {
        d.str(name);
        d.str(value);
        d.range(*r);
    }
    d
}

/// Whether `name` occurs in `text` as a word (ASCII identifier characters and any non-ASCII byte
/// count as word characters) outside `inside`.
fn named_outside(text: &str, name: &str, inside: (u32, u32)) -> bool {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
    text.match_indices(name).any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| bytes[j]);
        let after = bytes.get(i + name.len()).copied();
        let is_word = !before.is_some_and(word) && !after.is_some_and(word);
        is_word && !(i as u32 >= inside.0 && (i + name.len()) as u32 <= inside.1)
    })
}

// ---- the flattening, with the memo -----------------------------------------------------------------

/// What `extract` hands the memo: the new text's analysis.
pub(crate) struct Analysis<'s, 'a> {
    pub text: &'s str,
    pub options: &'s Options,
    pub slug: &'s str,
    pub body: &'a [Stmt],
    pub scope: &'s ModuleScope<'a>,
    /// Syntax errors (the parser's, misplaced starred expressions) or statements the depth guard
    /// skipped.
    pub has_errors: bool,
    /// A name spelled with non-ASCII characters: Python normalizes it (NFKC), so `ｈelper` is
    /// `helper`, and a search of the text for `helper` would miss it.
    pub non_ascii_names: bool,
}

/// The previous extraction's cases that may be reused for this one, and this one's, being recorded.
pub(crate) struct Plan {
    edit: Option<Edit>,
    old: Option<Base>,
    new_scope: Option<ScopeDigest>,
    new_cases: Cases,
    stats: Reuse,
    record: bool,
}

/// Case memos by the bytes of their digests (which an edit does not change), then their ranges.
type Cases = HashMap<Vec<u8>, Vec<(Vec<(u32, u32, bool)>, CaseMemo)>>;

impl Memo {
    /// Compare the new text's analysis with the last one; what may be reused.
    pub(crate) fn plan(&mut self, a: &Analysis) -> Plan {
        let options = (
            a.options.file.clone(),
            Some(a.slug.to_string()),
            a.options.solution_modules.clone(),
            a.options.pytest_version,
        );
        let plain = a.options.conftests.is_empty()
            && a.options.package_inits.is_empty()
            && a.options.config().is_none();
        let record = plain && !a.has_errors;
        let new_scope = record.then(|| scope_digest(a));
        let last = self.last.take();
        let decided = match (&last, &new_scope) {
            (None, _) => Err("no earlier extraction"),
            (_, None) if !plain => Err("conftests, solution globals or a configuration"),
            (_, None) => Err("syntax errors"),
            (Some(l), _) if l.options != options => Err("other options"),
            (Some(l), Some(new)) => match &l.base {
                None => Err("the earlier text had syntax errors"),
                Some(old) => reusable(&l.text, a, &old.scope, new),
            },
        };
        let mut plan = Plan {
            edit: None,
            old: None,
            new_scope,
            new_cases: HashMap::default(),
            stats: Reuse::default(),
            record,
        };
        match decided {
            Ok(edit) => {
                plan.edit = Some(edit);
                plan.old = last.and_then(|l| l.base);
            }
            Err(why) => {
                plan.stats.why_not = Some(why);
                if let Some(last) = last {
                    self.set_aside(Box::new(last));
                }
            }
        }
        self.last = Some(Last {
            text: a.text.to_string(),
            options,
            base: None,
        });
        plan
    }

    /// Keep what this extraction found, for the next.
    pub(crate) fn finish(&mut self, plan: Plan) {
        self.stats = plan.stats;
        if let Some(old) = plan.old {
            self.set_aside(Box::new(old));
        }
        if let (Some(last), true, Some(scope)) = (&mut self.last, plan.record, plan.new_scope) {
            last.base = Some(Base {
                scope,
                cases: plan.new_cases,
            });
        }
    }
}

/// The edit from `old_text` to the analysed text, widened to the function it is in, if the
/// previous extraction's cases may be reused across it; else why not.
fn reusable(
    old_text: &str,
    a: &Analysis,
    old: &ScopeDigest,
    new: &ScopeDigest,
) -> Result<Edit, &'static str> {
    if old_text == a.text {
        let none = Edit::none();
        let same = Digest::same(&old.rest, &new.rest, &none) && old.globals == new.globals;
        return if same {
            Ok(none)
        } else {
            Err("the same text analysed differently")
        };
    }
    // A lone `\r` ends a line too, and whether one is lone depends on the byte after it: the
    // line count of the edited region alone would not tell. (The page's editor joins lines with
    // `\n` only.)
    if old_text.contains('\r') || a.text.contains('\r') {
        return Err("the text has carriage returns");
    }
    let edit = Edit::between(old_text, a.text);
    let lines = |t: &str, s: u32, e: u32| {
        t.as_bytes()[s as usize..e as usize]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
    };
    if lines(old_text, edit.start, edit.old_end) != lines(a.text, edit.start, edit.new_end) {
        return Err("the edit adds or removes lines");
    }
    let Some(f) = enclosing_function(a.body, edit.start, edit.new_end) else {
        return Err("the edit is not inside a function's body");
    };
    // Everything in the function counts as edited: no reused case may read any of it.
    let edit = edit.widened(f.range.start().to_u32(), f.range.end().to_u32());
    if !Digest::same(&old.rest, &new.rest, &edit) {
        return Err("the module's analysis changed");
    }
    let mut changed: Vec<&String> = Vec::new();
    for (k, d) in &new.globals {
        if !old
            .globals
            .get(k)
            .is_some_and(|o| Digest::same(o, d, &edit))
        {
            changed.push(k);
        }
    }
    changed.extend(old.globals.keys().filter(|k| !new.globals.contains_key(*k)));
    if !changed.is_empty() && (old.non_ascii_names || new.non_ascii_names) {
        return Err("a module-level name changed, and the text has non-ASCII names");
    }
    for k in changed {
        if named_outside(a.text, k, (edit.start, edit.new_end))
            || named_outside(old_text, k, (edit.start, edit.old_end))
        {
            return Err("a module-level name the edit changed is used elsewhere");
        }
    }
    Ok(edit)
}

impl Plan {
    /// The case's flattening, from the memo if it may be reused: `shared` is `Ctx::shared_params`
    /// now (it is updated as the flattening would), `names` the solution names so far.
    pub(crate) fn case(
        &mut self,
        case: &Case,
        shared: &std::cell::RefCell<rustc_hash::FxHashSet<TextRange>>,
        names: &mut Vec<String>,
        flatten: impl FnOnce(&mut Vec<String>) -> Vec<Assertion>,
    ) -> Vec<Assertion> {
        let digest = (self.record || self.edit.is_some()).then(|| case_digest(case));
        let before = sorted(&shared.borrow());
        if let Some((out, added, solution_names)) =
            digest.as_ref().and_then(|d| self.reuse(d, &before))
        {
            {
                let mut set = shared.borrow_mut();
                for (s, e) in &added {
                    set.insert(TextRange::new((*s).into(), (*e).into()));
                }
            }
            names.extend(solution_names.iter().cloned());
            self.stats.reused += 1;
            if let Some(d) = digest {
                self.remember(d, before, shared, solution_names, &out);
            }
            return out;
        }
        let from = names.len();
        let out = flatten(names);
        self.stats.flattened += 1;
        if let Some(d) = digest {
            let added = names[from..].to_vec();
            self.remember(d, before, shared, added, &out);
        }
        out
    }

    /// The memo's flattening of the case `digest` describes, moved by the edit: its assertions,
    /// the parametrize values it adds to `Ctx::shared_params`, and its solution names.
    #[allow(clippy::type_complexity)]
    fn reuse(
        &self,
        digest: &Digest,
        before: &[(u32, u32)],
    ) -> Option<(Vec<Assertion>, Vec<(u32, u32)>, Vec<String>)> {
        let (edit, old) = (self.edit.as_ref()?, self.old.as_ref()?);
        let candidates = old.cases.get(&digest.bytes)?;
        let (_, m) = candidates
            .iter()
            .find(|(ranges, _)| Digest::same_ranges(ranges, &digest.ranges, edit))?;
        let params_ok = m.params_before.len() == before.len()
            && m.params_before
                .iter()
                .zip(before)
                .all(|(o, n)| edit.back(n.0, n.1) == Some(*o));
        if !params_ok {
            return None;
        }
        let out = m
            .out
            .iter()
            .map(|a| edit.move_assertion(a))
            .collect::<Option<Vec<_>>>()?;
        let added = m
            .params_added
            .iter()
            .map(|&(start, end)| {
                let span = Span {
                    start,
                    end,
                    line: 0,
                    end_line: 0,
                };
                edit.forward(&span).map(|s| (s.start, s.end))
            })
            .collect::<Option<Vec<_>>>()?;
        Some((out, added, m.solution_names.clone()))
    }

    fn remember(
        &mut self,
        digest: Digest,
        before: Vec<(u32, u32)>,
        shared: &std::cell::RefCell<rustc_hash::FxHashSet<TextRange>>,
        solution_names: Vec<String>,
        out: &[Assertion],
    ) {
        if !self.record {
            return;
        }
        let after = sorted(&shared.borrow());
        let params_added = after.into_iter().filter(|r| !before.contains(r)).collect();
        let Digest { bytes, ranges } = digest;
        self.new_cases.entry(bytes).or_default().push((
            ranges,
            CaseMemo {
                params_before: before,
                params_added,
                solution_names,
                out: out.to_vec(),
            },
        ));
    }
}

fn sorted(set: &rustc_hash::FxHashSet<TextRange>) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = set
        .iter()
        .map(|r| (r.start().to_u32(), r.end().to_u32()))
        .collect();
    v.sort_shared();
    v
}
