//! The page's entry point: `trunk build` compiles this crate to wasm32 (see `index.html`).

#[cfg(target_arch = "wasm32")]
fn main() {
    bench_explorer_web::start();
}

/// Natively there is no page to start: the crate builds so that its logic is tested and linted.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "bench-explorer-web is the explorer page: build it with `trunk build` (scripts/serve.sh)"
    );
    std::process::exit(2);
}
