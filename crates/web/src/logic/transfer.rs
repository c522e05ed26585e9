//! The extraction worker's protocol. The page posts the text and a `Request`; the worker
//! (`crates/web/src/worker.rs`, in a Web Worker) extracts, compares with the faithful
//! extractor, groups and builds the editor's diagnostics, and answers in parts: a small JSON header,
//! the offset map in binary (`OffsetMap::to_bytes`), then JSON chunks of about `CHUNK_BYTES` holding
//! the test groups, the editor's diagnostics and the assertions. The page decodes a few parts per
//! task, so no single task blocks its main thread for long, whatever the output's size.

use bench_explorer::model::{Assertion, Extraction};
use bench_explorer::{extract, Options, Shape, Stage};
use serde::{Deserialize, Serialize};

use super::compare::{compare, tally, StageFidelity, Tally};
use super::delta::Delta;
use super::diagnostics::{counts, diagnostics, Counts, Diagnostic};
use super::grouping::{group_by_test, TestGroup};
use super::offsets::OffsetMap;
use super::rows::row_keys;
use super::text_kind::not_text;

/// Chunks of assertions are cut after this many bytes of JSON: the page decodes one in a few
/// milliseconds (a 256 KB chunk took up to 50 ms in Chromium, one long task per chunk).
pub const CHUNK_BYTES: usize = 32 * 1024;
/// The editor gets at most this many diagnostics (the counts cover all of them): CodeMirror's lint
/// takes about 25 ms a thousand to set them, on the main thread.
pub const MAX_EDITOR_DIAGNOSTICS: usize = 1_000;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub file: String,
    pub slug: Option<String>,
    pub stage: Stage,
    /// The settings panel's solution modules (the CLI's `--solution-module`).
    #[serde(default)]
    pub solution_modules: Vec<String>,
    /// The settings panel's pytest version (the CLI's `--pytest-version`; empty: 9.0).
    #[serde(default)]
    pub pytest_version: String,
    /// Whether the slug is the user's or a bench problem's (not guessed from a pasted file's
    /// name): a guessed one raises no slug-name-mismatch.
    #[serde(default = "yes")]
    pub slug_is_real: bool,
    /// This request's generation (the reply's id), and the id of the result the page shows: the
    /// worker's reply then sends only what changed from it (`logic::delta`).
    #[serde(default)]
    pub id: u64,
    #[serde(default)]
    pub base: Option<u64>,
}

fn yes() -> bool {
    true
}

impl Request {
    pub fn options(&self) -> Options {
        Options {
            file: self.file.clone(),
            slug: self.slug.clone(),
            solution_modules: self.solution_modules.clone(),
            stage: self.stage,
            pytest_version: bench_explorer::PytestVersion::parse(&self.pytest_version)
                .unwrap_or_default(),
            ..Options::default()
        }
    }
}

#[derive(Serialize, Deserialize)]
pub struct Header {
    /// The extraction without its assertions (they follow in chunks).
    pub extraction: Extraction,
    pub assertions: usize,
    /// JSON chunks after the offset map.
    pub chunks: usize,
    pub groups: usize,
    pub diagnostics: usize,
    pub diagnostics_total: usize,
    pub counts: Counts,
    pub tally: Tally,
    pub totals: Totals,
    pub ms: f64,
    pub bytes: usize,
    pub not_text: Option<String>,
    /// The assertions the chunks leave out, as those of an earlier result moved by the edit.
    #[serde(default)]
    pub delta: Option<Delta>,
}

/// One JSON part after the map: any of the lists, each continuing the previous chunk's.
#[derive(Serialize, Deserialize)]
struct Chunk {
    #[serde(default)]
    groups: Vec<TestGroup>,
    #[serde(default)]
    diagnostics: Vec<Diagnostic>,
    #[serde(default)]
    assertions: Vec<Assertion>,
    #[serde(default)]
    verdicts: Vec<StageFidelity>,
    #[serde(default)]
    keys: Vec<u64>,
}

/// Serialized items joined into JSON arrays of about `CHUNK_BYTES`: `{"<field>":[...]}` each.
fn chunked<T: Serialize>(field: &str, items: &[T], out: &mut Vec<Vec<u8>>) {
    let mut buf = String::new();
    for item in items {
        buf.push(if buf.is_empty() { '[' } else { ',' });
        buf.push_str(&serde_json::to_string(item).unwrap_or_else(|_| "null".into()));
        if buf.len() >= CHUNK_BYTES {
            out.push(format!("{{\"{field}\":{buf}]}}").into_bytes());
            buf.clear();
        }
    }
    if !buf.is_empty() {
        out.push(format!("{{\"{field}\":{buf}]}}").into_bytes());
    }
}

/// What the views need, decoded.
pub struct Assembled {
    pub extraction: Extraction,
    pub map: OffsetMap,
    pub groups: Vec<TestGroup>,
    pub diagnostics: Vec<Diagnostic>,
    pub diagnostics_total: usize,
    pub counts: Counts,
    pub verdicts: Vec<StageFidelity>,
    pub tally: Tally,
    pub totals: Totals,
    pub keys: Vec<u64>,
    pub ms: f64,
    pub bytes: usize,
    pub not_text: Option<String>,
}

/// What the summary line shows, computed with the result (in the worker for all but small texts):
/// counting a 10 MB file's 60,000 assertions on the page's thread, after the reply, made a long
/// task of its own (issue 11).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub kept: usize,
    pub dropped: usize,
    /// The shapes found in the file (`Extraction::shapes`).
    pub shapes: Vec<Shape>,
}

impl Totals {
    pub fn of(e: &Extraction) -> Self {
        Totals {
            kept: e.kept().count(),
            dropped: e.dropped().count(),
            shapes: e.shapes(),
        }
    }
}

/// Everything the page shows about `text`, computed where it is called: in the worker (then
/// sent as parts, `analyze`), or on the page's main thread for a small text (`compute_within`).
/// `now` is a clock in milliseconds (for the extraction time shown).
pub fn compute(text: &str, req: &Request, now: impl Fn() -> f64) -> Assembled {
    compute_limited(text, req, now, usize::MAX, None).expect("no limit")
}

/// [`compute`], reusing what `memo` remembers of the previous text's extraction where the edit
/// cannot have changed it (`bench_explorer::extract_with`: the same result, faster after a
/// keystroke in a large file). The worker keeps one memo.
pub fn compute_with(
    text: &str,
    req: &Request,
    now: impl Fn() -> f64,
    memo: &mut bench_explorer::Memo,
) -> Assembled {
    compute_limited(text, req, now, usize::MAX, Some(memo)).expect("no limit")
}

/// [`compute`], or `None` when the extraction would write more than `max_expression_chars`
/// characters of kept expressions (`bench_explorer::extract_within`): the page's main thread
/// computes a small text's result itself, within a bounded time, and leaves the rest to the
/// worker.
pub fn compute_within(
    text: &str,
    req: &Request,
    now: impl Fn() -> f64,
    max_expression_chars: usize,
) -> Option<Assembled> {
    compute_limited(text, req, now, max_expression_chars, None)
}

fn compute_limited(
    text: &str,
    req: &Request,
    now: impl Fn() -> f64,
    limit: usize,
    memo: Option<&mut bench_explorer::Memo>,
) -> Option<Assembled> {
    let options = req.options();
    let why = not_text(text);
    let t0 = now();
    let (extraction, verdicts) = if why.is_some() {
        (extract("", &options), Vec::new())
    } else {
        // Under an earlier stage, the faithful extraction too, from the same parse (the page
        // marks what the stage got wrong). With or without the memo, the same extractions.
        let (extraction, faithful) =
            bench_explorer::extract_with_faithful(text, &options, limit, memo)?;
        let extraction = crate::logic::settings::without_guessed_slug(extraction, req.slug_is_real);
        let verdicts = faithful
            .map(|faithful| compare(&extraction, &faithful))
            .unwrap_or_default();
        (extraction, verdicts)
    };
    let ms = now() - t0;
    let map = if why.is_some() {
        OffsetMap::new("")
    } else {
        OffsetMap::new(text)
    };
    let groups = group_by_test(&extraction.assertions);
    let mut diagnostics = diagnostics(&extraction, &map);
    let counts = counts(&diagnostics);
    let diagnostics_total = diagnostics.len();
    diagnostics.truncate(MAX_EDITOR_DIAGNOSTICS);
    let keys = row_keys(&extraction.assertions, &verdicts);
    let tally = tally(&verdicts);
    let totals = Totals::of(&extraction);
    Some(Assembled {
        extraction,
        map,
        groups,
        diagnostics,
        diagnostics_total,
        counts,
        verdicts,
        tally,
        totals,
        keys,
        ms,
        bytes: text.len(),
        not_text: why,
    })
}

/// The worker's side: everything the page shows about `text`, as parts (UTF-8 JSON but for the
/// binary offset map, part 1). `now` is a clock in milliseconds (for the extraction time shown).
pub fn analyze(text: &str, req: &Request, now: impl Fn() -> f64) -> Vec<Vec<u8>> {
    to_parts(compute(text, req, now), None)
}

/// A result as the worker's parts: a JSON header, the binary offset map, then JSON chunks. With a
/// `delta`, the assertions it reuses are left out of the chunks.
pub fn to_parts(a: Assembled, delta: Option<Delta>) -> Vec<Vec<u8>> {
    to_parts_keeping(a, delta).0
}

/// [`to_parts`], and the result's assertions, which the worker keeps (`delta::History`).
pub fn to_parts_keeping(a: Assembled, delta: Option<Delta>) -> (Vec<Vec<u8>>, Vec<Assertion>) {
    let Assembled {
        mut extraction,
        map,
        groups,
        diagnostics: diags,
        diagnostics_total,
        counts,
        verdicts,
        tally,
        totals,
        keys,
        ms,
        bytes,
        not_text,
    } = a;

    // Chunks: hand-joined JSON, each item serialized once.
    let mut chunks: Vec<Vec<u8>> = Vec::new();
    chunked("groups", &groups, &mut chunks);
    chunked("diagnostics", &diags, &mut chunks);
    let (mut a_json, mut v_json, mut k_json) = (String::new(), String::new(), String::new());
    let flush = |a: &mut String, v: &mut String, k: &mut String, chunks: &mut Vec<Vec<u8>>| {
        if !k.is_empty() {
            chunks.push(
                format!("{{\"assertions\":[{a}],\"verdicts\":[{v}],\"keys\":[{k}]}}").into_bytes(),
            );
            a.clear();
            v.clear();
            k.clear();
        }
    };
    let kept = std::mem::take(&mut extraction.assertions);
    for (i, a) in kept.iter().enumerate() {
        let reused = delta
            .as_ref()
            .is_some_and(|d| d.plan.get(i).is_some_and(Option::is_some));
        if !k_json.is_empty() {
            k_json.push(',');
            if !verdicts.is_empty() {
                v_json.push(',');
            }
        }
        if !reused {
            if !a_json.is_empty() {
                a_json.push(',');
            }
            a_json.push_str(&serde_json::to_string(a).unwrap_or_else(|_| "null".into()));
        }
        if let Some(v) = verdicts.get(i) {
            v_json.push_str(&serde_json::to_string(v).unwrap_or_else(|_| "null".into()));
        }
        k_json.push_str(&keys[i].to_string());
        if a_json.len() + v_json.len() + k_json.len() >= CHUNK_BYTES {
            flush(&mut a_json, &mut v_json, &mut k_json, &mut chunks);
        }
    }
    flush(&mut a_json, &mut v_json, &mut k_json, &mut chunks);

    let assertions = kept.len();
    let header = Header {
        extraction: Extraction {
            assertions: Vec::new(),
            ..extraction
        },
        assertions,
        chunks: chunks.len(),
        groups: groups.len(),
        diagnostics: diags.len(),
        diagnostics_total,
        counts,
        tally,
        totals,
        ms,
        bytes,
        not_text,
        delta,
    };
    let mut parts = Vec::with_capacity(chunks.len() + 2);
    parts.push(serde_json::to_vec(&header).unwrap_or_default());
    parts.push(map.to_bytes());
    parts.extend(chunks);
    (parts, kept)
}

/// The page's side: decodes the parts one at a time.
pub struct Assembler {
    header: Header,
    map: Option<OffsetMap>,
    groups: Vec<TestGroup>,
    diagnostics: Vec<Diagnostic>,
    assertions: Vec<Assertion>,
    verdicts: Vec<StageFidelity>,
    keys: Vec<u64>,
    chunks_seen: usize,
}

impl Assembler {
    /// The header as UTF-8 JSON bytes (the worker transfers its parts as byte buffers).
    pub fn from_bytes(header: &[u8]) -> Result<Assembler, String> {
        let header: Header =
            serde_json::from_slice(header).map_err(|e| format!("worker header: {e}"))?;
        Ok(Assembler {
            map: None,
            groups: Vec::with_capacity(header.groups),
            diagnostics: Vec::with_capacity(header.diagnostics),
            assertions: Vec::with_capacity(header.assertions),
            verdicts: Vec::new(),
            keys: Vec::with_capacity(header.assertions),
            chunks_seen: 0,
            header,
        })
    }

    /// The next part: the binary offset map first, then the JSON chunks.
    pub fn push_bytes(&mut self, chunk: &[u8]) -> Result<(), String> {
        if self.map.is_none() {
            self.map = Some(OffsetMap::from_bytes(chunk)?);
            return Ok(());
        }
        let c: Chunk = serde_json::from_slice(chunk).map_err(|e| format!("worker chunk: {e}"))?;
        self.groups.extend(c.groups);
        self.diagnostics.extend(c.diagnostics);
        self.assertions.extend(c.assertions);
        self.verdicts.extend(c.verdicts);
        self.keys.extend(c.keys);
        self.chunks_seen += 1;
        Ok(())
    }

    /// How many assertions the reply reuses from the result it builds on.
    pub fn reused(&self) -> usize {
        self.header.delta.as_ref().map_or(0, Delta::reused)
    }

    /// The result the reply builds on (`logic::delta`), if any: the page must show it.
    pub fn base(&self) -> Option<u64> {
        self.header.delta.as_ref().map(|d| d.base)
    }

    /// For a reply that builds on an earlier result: its delta and the assertions sent in full,
    /// taken out so that the caller can rebuild the list a slice at a time
    /// (`Delta::rebuild_some`) and give it back ([`Assembler::rebuilt`]) before `finish(None)`.
    pub fn take_delta(&mut self) -> Option<(Delta, Vec<Assertion>)> {
        let delta = self.header.delta.take()?;
        Some((delta, std::mem::take(&mut self.assertions)))
    }

    /// The whole list of assertions, rebuilt from [`Assembler::take_delta`]'s.
    pub fn rebuilt(&mut self, all: Vec<Assertion>) {
        self.assertions = all;
    }

    /// The decoded result. `base`: the assertions of the result the page shows, with its id, for
    /// a reply that reuses them (none once `take_delta` took the delta out).
    pub fn finish(self, base: Option<(u64, &[Assertion])>) -> Result<Assembled, String> {
        let h = self.header;
        let Some(map) = self.map else {
            return Err("worker reply incomplete: no offset map".into());
        };
        let sent = h
            .delta
            .as_ref()
            .map_or(h.assertions, |d| d.plan.len() - d.reused());
        if self.chunks_seen != h.chunks
            || self.groups.len() != h.groups
            || self.diagnostics.len() != h.diagnostics
            || self.assertions.len() != sent
            || self.keys.len() != h.assertions
        {
            return Err(format!(
                "worker reply incomplete: {} of {} chunks, {} of {} assertions",
                self.chunks_seen,
                h.chunks,
                self.assertions.len(),
                h.assertions
            ));
        }
        let mut extraction = h.extraction;
        extraction.assertions = match &h.delta {
            None => self.assertions,
            Some(d) => match base {
                Some((id, list)) if id == d.base => d
                    .rebuild(list, self.assertions)
                    .filter(|all| all.len() == h.assertions)
                    .ok_or("worker reply does not fit the result it builds on")?,
                _ => return Err("worker reply builds on a result the page no longer shows".into()),
            },
        };
        Ok(Assembled {
            extraction,
            map,
            groups: self.groups,
            diagnostics: self.diagnostics,
            diagnostics_total: h.diagnostics_total,
            counts: h.counts,
            verdicts: self.verdicts,
            tally: h.tally,
            totals: h.totals,
            keys: self.keys,
            ms: h.ms,
            bytes: h.bytes,
            not_text: h.not_text,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(text: &str, stage: Stage) -> Assembled {
        let req = Request {
            file: "test_t.py".into(),
            slug: None,
            stage,
            solution_modules: Vec::new(),
            pytest_version: String::new(),
            slug_is_real: true,
            id: 0,
            base: None,
        };
        let parts = analyze(text, &req, || 0.0);
        let mut asm = Assembler::from_bytes(&parts[0]).unwrap();
        for p in &parts[1..] {
            asm.push_bytes(p).unwrap();
        }
        asm.finish(None).unwrap()
    }

    #[test]
    fn parts_decode_to_the_direct_extraction() {
        let mut src = String::from("import pytest\nfrom solution import f\n");
        for t in 0..40 {
            src.push_str(&format!(
                "@pytest.mark.parametrize('x', [1, 2])\ndef test_{t}(x):\n    r = f(x)\n    assert r == x\n    assert undefined_{t} == 1\n"
            ));
        }
        for stage in [Stage::Full, Stage::AsWritten] {
            let a = roundtrip(&src, stage);
            let opts = Request {
                file: "test_t.py".into(),
                slug: None,
                stage,
                solution_modules: Vec::new(),
                pytest_version: String::new(),
                slug_is_real: true,
                id: 0,
                base: None,
            }
            .options();
            let direct = extract(&src, &opts);
            assert_eq!(a.extraction, direct);
            assert_eq!(a.groups, group_by_test(&direct.assertions));
            assert_eq!(a.keys.len(), direct.assertions.len());
            assert_eq!(a.map, OffsetMap::new(&src));
            assert_eq!(a.bytes, src.len());
            // The summary's totals come with the reply, as the page would count them.
            assert_eq!(a.totals.kept, direct.kept().count());
            assert_eq!(a.totals.dropped, direct.dropped().count());
            assert!(a.totals.kept > 0 && (a.totals.dropped > 0 || stage != Stage::Full));
            assert_eq!(a.totals.shapes, direct.shapes());
            if stage == Stage::Full {
                assert!(a.verdicts.is_empty());
            } else {
                assert_eq!(a.verdicts.len(), direct.assertions.len());
            }
        }
    }

    #[test]
    fn a_reply_that_builds_on_the_shown_result_decodes_to_the_direct_extraction() {
        let mut old = String::from("from solution import f\n");
        for t in 0..30 {
            old.push_str(&format!(
                "def test_{t}():\n    r = f({t})\n    assert r == {t}\n"
            ));
        }
        let new = old.replace("assert r == 12", "assert r == 120");
        let req = |id, base| Request {
            file: "test_t.py".into(),
            slug: None,
            stage: Stage::Full,
            solution_modules: Vec::new(),
            pytest_version: String::new(),
            slug_is_real: true,
            id,
            base,
        };
        let first = compute(&old, &req(1, None), || 0.0);
        let mut history = crate::logic::delta::History::default();
        history.remember(1, Stage::Full, &old, first.extraction.assertions.clone());
        let second = compute(&new, &req(2, Some(1)), || 0.0);
        let delta = history
            .delta(Some(1), Stage::Full, &new, &second.extraction.assertions)
            .expect("a local edit reuses the rest");
        assert_eq!(delta.reused(), 29);
        let parts = to_parts(second, Some(delta));
        let decode = |base: Option<(u64, &[Assertion])>| {
            let mut asm = Assembler::from_bytes(&parts[0]).unwrap();
            assert_eq!(asm.base(), Some(1));
            for p in &parts[1..] {
                asm.push_bytes(p).unwrap();
            }
            asm.finish(base)
        };
        let a = decode(Some((1, &first.extraction.assertions))).unwrap();
        assert_eq!(a.extraction, extract(&new, &req(2, None).options()));
        // Without the result it builds on (the page shows another), it is refused, not guessed.
        assert!(decode(None).is_err());
        assert!(decode(Some((3, &first.extraction.assertions))).is_err());
    }

    #[test]
    fn the_worker_memo_gives_the_same_result_at_every_stage() {
        let mut old = String::from("from solution import f\n");
        for t in 0..30 {
            old.push_str(&format!(
                "def test_{t}():\n    r = f({t})\n    assert r == {t}\n"
            ));
        }
        let new = old.replace("assert r == 12", "assert r == 120");
        let mut memo = bench_explorer::Memo::new();
        for stage in Stage::ALL {
            let req = Request {
                file: "test_t.py".into(),
                slug: None,
                stage,
                solution_modules: Vec::new(),
                pytest_version: String::new(),
                slug_is_real: true,
                id: 1,
                base: None,
            };
            for text in [&old, &new, &old] {
                let with = compute_with(text, &req, || 0.0, &mut memo);
                let without = compute(text, &req, || 0.0);
                assert_eq!(with.extraction, without.extraction, "{stage:?}");
                assert_eq!(with.verdicts, without.verdicts, "{stage:?}");
            }
            // The last edit (120 -> 12) flattened only the edited test (and, at an earlier
            // stage, the faithful extraction of the same text reused all of them).
            let reuse = memo.last_reuse();
            assert!(
                reuse.flattened <= 1 && reuse.reused >= 29,
                "{stage:?}: {reuse:?}"
            );
        }
    }

    #[test]
    fn large_outputs_come_in_several_chunks() {
        let mut src = String::from("from solution import f\ndef test_many():\n");
        for i in 0..2_000 {
            src.push_str(&format!("    assert f({i}) == {i}\n"));
        }
        let req = Request {
            file: "test_t.py".into(),
            slug: None,
            stage: Stage::Full,
            solution_modules: Vec::new(),
            pytest_version: String::new(),
            slug_is_real: true,
            id: 0,
            base: None,
        };
        let parts = analyze(&src, &req, || 0.0);
        // Cut as soon as a chunk reaches the size: of each kind, every chunk but the last is at
        // least that big, and the chunks hold every assertion once.
        for kind in ["{\"groups\"", "{\"diagnostics\"", "{\"assertions\""] {
            let sizes: Vec<usize> = parts[2..]
                .iter()
                .filter(|p| p.starts_with(kind.as_bytes()))
                .map(Vec::len)
                .collect();
            assert!(!sizes.is_empty() || kind.contains("diag"), "{kind}");
            if kind.contains("assertions") {
                assert!(sizes.len() > 3, "{} chunks", sizes.len());
            }
            assert!(
                sizes.iter().rev().skip(1).all(|&n| n >= CHUNK_BYTES),
                "{kind} {sizes:?}"
            );
        }
        let a = roundtrip(&src, Stage::Full);
        assert_eq!(a.extraction.assertions.len(), 2_000);
    }

    #[test]
    fn binary_is_named_not_parsed() {
        let a = roundtrip(
            "\0\0\u{1}PK\u{3}\u{4}def test_x():\n    assert 1\n",
            Stage::Full,
        );
        assert!(a.not_text.as_deref().unwrap().contains("NUL"));
        assert!(a.extraction.assertions.is_empty());
        assert!(a.extraction.syntax_errors.is_empty());
    }

    #[test]
    fn incomplete_replies_are_refused() {
        let mut src = String::from("def test_many():\n");
        for i in 0..5_000 {
            src.push_str(&format!("    assert f({i}) == {i}\n"));
        }
        let req = Request {
            file: "test_t.py".into(),
            slug: None,
            stage: Stage::Full,
            solution_modules: Vec::new(),
            pytest_version: String::new(),
            slug_is_real: true,
            id: 0,
            base: None,
        };
        let parts = analyze(&src, &req, || 0.0);
        assert!(parts.len() > 3, "{} parts", parts.len());
        let mut asm = Assembler::from_bytes(&parts[0]).unwrap();
        asm.push_bytes(&parts[1]).unwrap();
        asm.push_bytes(&parts[2]).unwrap();
        assert!(asm.finish(None).is_err());
        // The map must come first: a JSON chunk in its place is refused.
        let mut asm = Assembler::from_bytes(&parts[0]).unwrap();
        assert!(asm.push_bytes(&parts[3]).is_err());
    }
}
