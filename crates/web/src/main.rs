//! The page's entry point: `trunk build` compiles this crate to wasm32 (see `index.html`).

///
/// The same wasm also runs in the extraction worker (`www/extract-worker.js`), which has no window:
/// there it starts nothing and only answers `benchWorkerAnalyze` calls.
#[cfg(target_arch = "wasm32")]
fn main() {
    if web_sys::window().is_some() {
        bench_explorer_web::start();
    }
}

/// Keeps the worker's entry points in the bin's exports.
#[cfg(target_arch = "wasm32")]
pub use bench_explorer_web::worker::{register_names_table, worker_analyze};

/// Natively there is no page to start: the crate builds so that its logic is tested and linted.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "bench-explorer-web is the explorer page: build it with `trunk build` (scripts/serve.sh)"
    );
    std::process::exit(2);
}
