//! The extraction worker's own build (`www/extract-worker.js` loads it; `index.html` has Trunk
//! build it): the extractor and the worker's entry points only, without the page, compiled for
//! speed (Cargo.toml's `[profile.worker]`, opt-level 3) where the page's wasm is compiled for
//! size. The worker loads it after the page is up, so it adds nothing to the first download;
//! natively its extraction is about a third faster than the page's build (`benches/web.mjs`).
//! Should it fail to load, the worker runs the page's own wasm instead (same entry points).

/// The worker's entry points, kept in this bin's exports.
#[cfg(target_arch = "wasm32")]
pub use bench_explorer_web::worker::{
    register_names_table, worker_analyze, worker_release, worker_warm,
};

/// A worker has nothing to start: each request calls `benchWorkerAnalyze`.
#[cfg(target_arch = "wasm32")]
fn main() {}

/// Natively there is no worker: the crate builds so that its logic is tested and linted.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("bench-explorer-worker is the page's extraction worker: build it with `trunk build` (scripts/serve.sh)");
    std::process::exit(2);
}
