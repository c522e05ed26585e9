//! The page's entry point: `trunk build` compiles this crate to wasm32 (see `index.html`).

///
/// The extraction worker (`www/extract-worker.js`) runs this wasm too (the page sends it the
/// compiled module): in a worker there is no window, so it starts nothing and only answers
/// `benchWorkerAnalyze` calls.
#[cfg(target_arch = "wasm32")]
fn main() {
    // boot.js also runs a second instance on the page, for small extractions (`benchNoStart` set
    // while it starts): it must not start a second page.
    let no_start = js_sys::Reflect::get(&js_sys::global(), &"benchNoStart".into())
        .is_ok_and(|v| v.is_truthy());
    if web_sys::window().is_some() && !no_start {
        bench_explorer_web::start();
    }
}

/// Keeps the worker's entry points in the bin's exports.
#[cfg(target_arch = "wasm32")]
pub use bench_explorer_web::worker::{
    inline_analyze, inline_panic, register_names_table, worker_analyze,
};

/// Natively there is no page to start: the crate builds so that its logic is tested and linted.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "bench-explorer-web is the explorer page: build it with `trunk build` (scripts/serve.sh)"
    );
    std::process::exit(2);
}
