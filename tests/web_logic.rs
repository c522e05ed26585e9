//! Native tests of the web page's view-independent logic (`src/web/logic/`): offsets, permalinks,
//! grouping, links, diagnostics, the audit rows, the stage comparison, Markdown, the teaching text, and
//! the Run tab's logic (requests to the Python worker, its replies, verdict rows, whole-bench totals).
//! The page itself compiles only for wasm32; this logic is pure Rust, so it is included here by path
//! and its `#[cfg(test)]` modules run under `cargo test`.

#[path = "../src/web/logic/mod.rs"]
mod logic;
