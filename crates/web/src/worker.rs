//! The extraction worker's entry point. `www/extract-worker.js` runs the page's wasm (the page sends
//! its compiled module; `main` starts nothing there: there is no window) in a module Web Worker,
//! and calls `benchWorkerAnalyze` for each request; the page (`engine.rs`) decodes the parts one
//! task at a time.
//!
//! The Unicode names table (crates/unicode-names) is not in the wasm: for a text that contains
//! `\N`, the worker fetches it from the page's folder (a synchronous request, allowed in a worker)
//! before parsing, once, and passes it on to the page with its reply (the page parses too: the
//! compare view, the Run tab). If it cannot, the reply says so (`namesNotice`).

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::bench;
use crate::logic::delta::History;
use crate::logic::names;
use crate::logic::transfer::{compute_with, compute_within, to_parts, to_parts_keeping, Request};

/// `performance.now()` in a worker or a window.
fn now() -> f64 {
    Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Extract `text` under `request` (a `transfer::Request` as JSON). Returns `{ modified, parts }`:
/// whether the text differs from the bench problem named by the slug, and the JSON parts (UTF-8,
/// one `Uint8Array` each).
#[wasm_bindgen(js_name = benchWorkerAnalyze)]
pub fn worker_analyze(text: &str, request: &str) -> Result<JsValue, JsValue> {
    console_error_panic_hook::set_once();
    let req = parse_request(request)?;
    let (table, notice) = ensure_names_table(text);
    // The tests an edit cannot have changed are not flattened again (`bench_explorer::Memo`).
    // `benchNoMemo` set on the worker's global (benches/web.mjs) measures without it.
    let result = MEMO.with(|m| {
        let mut memo = m.borrow_mut();
        if Reflect::get(&js_sys::global(), &JsValue::from_str("benchNoMemo"))
            .is_ok_and(|v| v.is_truthy())
        {
            memo.clear();
        }
        compute_with(text, &req, now, &mut memo)
    });
    let reuse = MEMO.with(|m| {
        let m = m.borrow();
        let r = m.last_reuse();
        (r.reused as f64, r.flattened as f64)
    });
    // Only what changed from the result the page shows, when this worker still has it.
    let delta = HISTORY.with(|h| {
        h.borrow()
            .delta(req.base, req.stage, text, &result.extraction.assertions)
    });
    let (parts, assertions) = to_parts_keeping(result, delta);
    // The results it no longer keeps are freed after the reply (`benchWorkerRelease`).
    let forgotten = HISTORY.with(|h| h.borrow_mut().remember(req.id, req.stage, text, assertions));
    ASIDE.with(|a| a.borrow_mut().push(Box::new(forgotten)));
    let out = reply(text, &req, parts, table, notice)?;
    // Cases reused and flattened (the page publishes them for the benchmark and the tests).
    let memo = Array::of2(&JsValue::from_f64(reuse.0), &JsValue::from_f64(reuse.1));
    Reflect::set(&out, &"memo".into(), &memo)?;
    Ok(out)
}

/// The same answer as `benchWorkerAnalyze`, computed on the page's main thread for a small text
/// (`www/boot.js` runs it in a second instance of this wasm, so that a panic cannot take the
/// page's own instance down): `null` when the extraction would write more than
/// `max_expression_chars` characters of kept expressions (its time is bounded by that and the
/// text's size), or when the text needs the Unicode names table and this instance has none (only
/// the worker may fetch it, with a synchronous request). The caller then asks the worker.
#[wasm_bindgen(js_name = benchInlineAnalyze)]
pub fn inline_analyze(
    text: &str,
    request: &str,
    max_expression_chars: u32,
) -> Result<JsValue, JsValue> {
    console_error_panic_hook::set_once();
    let req = parse_request(request)?;
    if unicode_names2::may_need_table(text) && !unicode_names2::table_loaded() {
        return Ok(JsValue::NULL);
    }
    let Some(result) = compute_within(text, &req, now, max_expression_chars as usize) else {
        return Ok(JsValue::NULL);
    };
    reply(text, &req, to_parts(result, None), None, None)
}

/// For the end-to-end tests: a real panic in the instance that runs it (the page's inline
/// instance: boot.js must drop it and ask the worker instead).
#[wasm_bindgen(js_name = benchInlinePanic)]
pub fn inline_panic() {
    panic!("simulated panic in the inline extraction instance");
}

fn parse_request(request: &str) -> Result<Request, JsValue> {
    serde_json::from_str(request).map_err(|e| JsValue::from_str(&format!("bad request: {e}")))
}

/// `{ modified, parts, namesTable?, namesNotice? }`.
fn reply(
    text: &str,
    req: &Request,
    parts: Vec<Vec<u8>>,
    table: Option<js_sys::Uint8Array>,
    notice: Option<String>,
) -> Result<JsValue, JsValue> {
    let modified = req
        .slug
        .as_deref()
        .and_then(bench::find)
        .is_some_and(|p| p.test != text);
    // UTF-8 bytes in their own buffers: the worker transfers them to the page without a copy,
    // and the page copies each into its wasm only when it decodes it.
    let list = Array::new();
    for p in parts {
        list.push(&js_sys::Uint8Array::from(p.as_slice()));
    }
    let out = Object::new();
    Reflect::set(&out, &"modified".into(), &JsValue::from_bool(modified))?;
    Reflect::set(&out, &"parts".into(), &list)?;
    if let Some(t) = table {
        Reflect::set(&out, &"namesTable".into(), &t)?;
    }
    if let Some(n) = notice {
        Reflect::set(&out, &"namesNotice".into(), &JsValue::from_str(&n))?;
    }
    Ok(out.into())
}

/// Rounds of warm-up over the bench's files (`benchWorkerWarm`).
const WARM_ROUNDS: u32 = 3;
/// Then this many extractions of a generated file of `WARM_LARGE_LINES` lines.
const WARM_LARGE: u32 = 6;
const WARM_LARGE_LINES: usize = 400;

/// One step of the worker's warm-up, run when it has nothing else to do after start-up: the whole
/// pipeline (extract, group, serialize) on bench file `step % 21`, a round per stage.
/// The engine runs a module's code unoptimized until it has been called enough: before this, the
/// first keystrokes' extractions took several times longer than later ones. Returns whether
/// there are more steps.
#[wasm_bindgen(js_name = benchWorkerWarm)]
pub fn worker_warm(step: u32) -> bool {
    let problems = bench::problems();
    let bench_steps = WARM_ROUNDS * problems.len() as u32;
    let total = bench_steps + WARM_LARGE;
    // Then a few larger generated files: code that only a file with hundreds of tests runs hot
    // (a 2,000-line file's first extractions took twice as long as later ones).
    if step >= bench_steps {
        let mut text = bench_explorer::synth::test_file(WARM_LARGE_LINES);
        // Every other time with a digit typed into a test: the memo's reuse runs hot too.
        if step % 2 == 1 {
            if let Some(at) = text.find("== 1\n") {
                text.insert(at + 4, '7');
            }
        }
        let req = Request {
            file: "test_warm.py".into(),
            slug: None,
            stage: bench_explorer::Stage::Full,
            solution_modules: Vec::new(),
            pytest_version: String::new(),
            slug_is_real: true,
            id: 0,
            base: None,
        };
        let result = WARM_MEMO.with(|m| compute_with(&text, &req, now, &mut m.borrow_mut()));
        std::hint::black_box(to_parts(result, None));
        return step + 1 < total;
    }
    let Some(p) = problems.get((step as usize) % problems.len().max(1)) else {
        return false;
    };
    // The default stage first (the others run the faithful extraction too).
    let stages = bench_explorer::Stage::ALL;
    let round = step as usize / problems.len();
    let req = Request {
        file: p.test_name.to_string(),
        slug: Some(p.slug.to_string()),
        stage: stages[stages.len() - 1 - round % stages.len()],
        solution_modules: Vec::new(),
        pytest_version: String::new(),
        slug_is_real: true,
        id: 0,
        base: None,
    };
    let result = WARM_MEMO.with(|m| compute_with(p.test, &req, now, &mut m.borrow_mut()));
    std::hint::black_box(to_parts(result, None));
    step + 1 < total
}

/// Keystrokes of the worker's warm-up, after `benchWorkerWarm`'s steps (the page's on-page
/// instance does not run them: it extracts only small texts, on the main thread).
const WARM_KEYS: u32 = 30;
/// In a generated file of this many lines.
const WARM_KEY_LINES: usize = 1_000;

/// One step of the worker's keystroke warm-up: a generated file's whole extraction, then
/// `WARM_KEYS` digits typed and deleted in one of its tests, each through the memo, the reply's
/// delta against the previous result and its parts, as the user's typing runs them. The engine
/// runs a module's code unoptimized until it has run enough: after `benchWorkerWarm` alone, the
/// first keystrokes in a new 2,000-line file took 30 to 57 ms each in Node instead of 7 (and its
/// first extraction 84 ms instead of 17), for the first few keys or more. Returns whether there
/// are more steps; the last one frees what the warm-up kept.
#[wasm_bindgen(js_name = benchWorkerWarmKeys)]
pub fn worker_warm_keys(step: u32) -> bool {
    if step > WARM_KEYS {
        return false;
    }
    let mut text = bench_explorer::synth::test_file(WARM_KEY_LINES);
    if step % 2 == 1 {
        if let Some(at) = text[..text.len() / 2].rfind("== 1\n") {
            text.insert(at + 4, '7');
        }
    }
    let req = Request {
        file: "test_warm.py".into(),
        slug: None,
        stage: bench_explorer::Stage::Full,
        solution_modules: Vec::new(),
        pytest_version: String::new(),
        slug_is_real: true,
        id: u64::from(step) + 1,
        base: (step > 0).then_some(u64::from(step)),
    };
    let result = WARM_MEMO.with(|m| compute_with(&text, &req, now, &mut m.borrow_mut()));
    let delta = WARM_HISTORY.with(|h| {
        h.borrow()
            .delta(req.base, req.stage, &text, &result.extraction.assertions)
    });
    let (parts, assertions) = to_parts_keeping(result, delta);
    std::hint::black_box(parts);
    let forgotten = WARM_HISTORY.with(|h| {
        h.borrow_mut()
            .remember(req.id, req.stage, &text, assertions)
    });
    drop(forgotten);
    WARM_MEMO.with(|m| m.borrow_mut().release());
    if step == WARM_KEYS {
        WARM_MEMO.with(|m| m.borrow_mut().clear());
        WARM_HISTORY.with(|h| *h.borrow_mut() = History::default());
        return false;
    }
    true
}

/// Free what the last requests set aside: their syntax trees, the memo's and the history's
/// previous entries. `www/extract-worker.js` calls it once a reply has been posted: freeing them
/// was a tenth of a keystroke's time in a large file, spent before the reply.
#[wasm_bindgen(js_name = benchWorkerRelease)]
pub fn worker_release() {
    MEMO.with(|m| m.borrow_mut().release());
    WARM_MEMO.with(|m| m.borrow_mut().release());
    ASIDE.with(|a| a.borrow_mut().clear());
}

/// Register the names table that another worker loaded (the page passes it to a new worker).
#[wasm_bindgen(js_name = benchRegisterNamesTable)]
pub fn register_names_table(bytes: &[u8]) -> Result<(), JsValue> {
    unicode_names2::register_table(bytes).map_err(|e| JsValue::from_str(&e))
}

thread_local! {
    /// What a request set aside, to free after its reply (`benchWorkerRelease`).
    static ASIDE: std::cell::RefCell<Vec<Box<dyn std::any::Any>>> = const { std::cell::RefCell::new(Vec::new()) };
    /// The worker's last results, for replies that send only what changed (`logic::delta`).
    static HISTORY: std::cell::RefCell<History> = std::cell::RefCell::new(History::default());
    /// The last extraction, for the next one to reuse (`bench_explorer::Memo`).
    static MEMO: std::cell::RefCell<bench_explorer::Memo> = std::cell::RefCell::new(bench_explorer::Memo::new());
    /// The warm-up's own (it runs between the page's requests: with the same memo, the next
    /// keystroke after it would find the warm-up's file there and flatten everything).
    static WARM_MEMO: std::cell::RefCell<bench_explorer::Memo> = std::cell::RefCell::new(bench_explorer::Memo::new());
    /// The keystroke warm-up's results, for its replies' deltas (`benchWorkerWarmKeys`).
    static WARM_HISTORY: std::cell::RefCell<History> = std::cell::RefCell::new(History::default());
    /// When the table last failed to load (performance.now()), so that a page that cannot reach it
    /// does not ask again at every keystroke.
    static LAST_FAILURE: std::cell::Cell<Option<f64>> = const { std::cell::Cell::new(None) };
}

/// Ask again after a failure once this much time has passed.
const RETRY_AFTER_MS: f64 = 10_000.0;

/// Load the names table if `text` may need it and it is not loaded yet. Returns the table's bytes
/// when this call loaded it (for the page), and the notice for the page when it could not.
fn ensure_names_table(text: &str) -> (Option<js_sys::Uint8Array>, Option<String>) {
    if !unicode_names2::may_need_table(text) || unicode_names2::table_loaded() {
        return (None, None);
    }
    let file = unicode_names2::TABLE_FILE;
    if let Some(t) = LAST_FAILURE.with(|f| f.get()) {
        if now() - t < RETRY_AFTER_MS {
            return (
                None,
                Some(names::not_loaded(file, "it failed a moment ago")),
            );
        }
    }
    match fetch_table(file) {
        Ok(bytes) => match unicode_names2::register_table(&bytes.to_vec()) {
            Ok(()) => {
                LAST_FAILURE.with(|f| f.set(None));
                (Some(bytes), None)
            }
            Err(e) => {
                LAST_FAILURE.with(|f| f.set(Some(now())));
                (None, Some(names::not_loaded(file, &e)))
            }
        },
        Err(e) => {
            LAST_FAILURE.with(|f| f.set(Some(now())));
            (None, Some(names::not_loaded(file, &e)))
        }
    }
}

/// GET `file` (relative to the worker's script, i.e. the page's folder), synchronously.
fn fetch_table(file: &str) -> Result<js_sys::Uint8Array, String> {
    let js_err = |e: JsValue| {
        e.dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .or_else(|| e.as_string())
            .unwrap_or_else(|| "the request failed".into())
    };
    let xhr = web_sys::XmlHttpRequest::new().map_err(js_err)?;
    xhr.open_with_async("GET", file, false).map_err(js_err)?;
    xhr.set_response_type(web_sys::XmlHttpRequestResponseType::Arraybuffer);
    xhr.send().map_err(js_err)?;
    let status = xhr.status().map_err(js_err)?;
    if status != 200 {
        return Err(format!("HTTP {status}"));
    }
    let body = xhr.response().map_err(js_err)?;
    let buf = body
        .dyn_into::<js_sys::ArrayBuffer>()
        .map_err(|_| "no body".to_string())?;
    Ok(js_sys::Uint8Array::new(&buf))
}
