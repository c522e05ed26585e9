//! The page's view-independent logic: plain Rust over the library's types, no web-sys, no Leptos.
//! Compiled on every target: into the wasm page, and natively, where `cargo test` runs its tests
//! without a browser.

pub mod audit;
pub mod bench_files;
pub mod compare;
pub mod delta;
pub mod diagnostics;
pub mod grouping;
pub mod keys;
pub mod links;
pub mod lzstring;
pub mod markdown;
pub mod marks;
pub mod metrics;
pub mod mutation;
pub mod mutation_scores;
pub mod names;
pub mod offsets;
pub mod permalink;
pub mod rows;
pub mod rule_pages;
pub mod run_results;
pub mod settings;
pub mod stage_diff;
pub mod teach;
pub mod text_kind;
pub mod transfer;
