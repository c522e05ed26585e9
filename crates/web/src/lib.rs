//! The web page: the extractor compiled to wasm, with a Leptos (client-side rendered) front end.
//!
//! - `logic/`: view-independent logic (offsets, permalinks, grouping, audit rows, diagnostics,
//!   Markdown, the teaching text, the Run tab's requests, replies and totals): plain Rust over the
//!   library's types, compiled on every target, so `cargo test -p bench-explorer-web` runs its tests
//!   natively, without a browser.
//! - `bench`: the bench embedded at build time (`build.rs`) and its audits.
//! - `js`: the JavaScript side (the bundled CodeMirror module, the `window.__benchExplorer` hook).
//! - `engine`: live extraction and the actions that load files.
//! - `run_control`, `python`: the Run tab's state and actions, and the handle on the Python worker
//!   (`www/py/`): the bench loop's view and pytest's, side by side, for a file or the whole bench;
//!   `mutant_run`: the Mutants view's (mutants of the solution, each run both ways and judged).
//! - `state`: shared signals, provided as context.
//! - `worker`: the entry points of the extraction worker (`www/extract-worker.js` runs them off the
//!   main thread, in this same wasm, which the page sends it compiled; `engine` talks to it).
//! - `ui/`: the components.
//!
//! Everything but `logic/` touches the DOM and compiles for wasm32 only (`src/main.rs` starts it).
//!
//! Nothing derived from a file is ever rendered as HTML: every such string reaches the DOM as a
//! Leptos text node.

pub mod logic;

#[cfg(target_arch = "wasm32")]
mod bench;
#[cfg(target_arch = "wasm32")]
mod engine;
#[cfg(target_arch = "wasm32")]
mod js;
#[cfg(target_arch = "wasm32")]
mod mutant_run;
#[cfg(target_arch = "wasm32")]
mod python;
#[cfg(target_arch = "wasm32")]
mod run_control;
#[cfg(target_arch = "wasm32")]
mod state;
#[cfg(target_arch = "wasm32")]
mod ui;
#[cfg(target_arch = "wasm32")]
pub mod worker;

#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
pub use page::start;
