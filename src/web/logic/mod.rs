//! The page's view-independent logic: plain Rust over the library's types, no web-sys, no Leptos.
//! Compiled into the wasm page (`src/web/`) and, through `#[path]`, into the native test
//! `tests/web_logic.rs`, so `cargo test` covers it without a browser.

// Some helpers exist for the native tests and for the next issue's views.
#![allow(dead_code)]

pub mod audit;
pub mod compare;
pub mod diagnostics;
pub mod grouping;
pub mod links;
pub mod markdown;
pub mod offsets;
pub mod permalink;
pub mod run;
pub mod teach;
