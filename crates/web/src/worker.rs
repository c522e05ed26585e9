//! The extraction worker's entry point. `www/extract-worker.js` loads this same wasm in a module
//! Web Worker (where `main` starts nothing: there is no window) and calls `benchWorkerAnalyze` for
//! each request; the page (`engine.rs`) decodes the parts one task at a time.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::bench;
use crate::logic::transfer::{analyze, Request};

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
    let req: Request = serde_json::from_str(request)
        .map_err(|e| JsValue::from_str(&format!("bad request: {e}")))?;
    let modified = req
        .slug
        .as_deref()
        .and_then(bench::find)
        .is_some_and(|p| p.test != text);
    let parts = analyze(text, &req, now);
    // UTF-8 bytes in their own buffers: the worker transfers them to the page without a copy,
    // and the page copies each into its wasm only when it decodes it.
    let list = Array::new();
    for p in parts {
        list.push(&js_sys::Uint8Array::from(p.as_slice()));
    }
    let out = Object::new();
    Reflect::set(&out, &"modified".into(), &JsValue::from_bool(modified))?;
    Reflect::set(&out, &"parts".into(), &list)?;
    Ok(out.into())
}

/// Rounds of warm-up over the bench's files (`benchWorkerWarm`).
const WARM_ROUNDS: u32 = 3;

/// One step of the worker's warm-up, run when it has nothing else to do after start-up: the whole
/// pipeline (extract, group, serialize) on bench file `step % 21`, a round per stage.
/// The engine runs a module's code unoptimized until it has been called enough: before this, the
/// first keystrokes' extractions took several times longer than later ones. Returns whether
/// there are more steps.
#[wasm_bindgen(js_name = benchWorkerWarm)]
pub fn worker_warm(step: u32) -> bool {
    let problems = bench::problems();
    let total = WARM_ROUNDS * problems.len() as u32;
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
        slug_is_real: true,
    };
    std::hint::black_box(analyze(p.test, &req, now));
    step + 1 < total
}
