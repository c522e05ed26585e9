//! Property and fuzz tests of the extractor, one module per suite:
//!
//! - `checks`: the corpus and the checks every extraction must pass, whatever the input: no panic;
//!   every span, origin and syntax-error byte range inside the source and on char boundaries, with
//!   `line`/`end_line` (and columns) that agree with the source; `line`/`column` 1-based and at the
//!   `assert` keyword; assertions in source order; kept entries with an `expr`, dropped ones with a
//!   `reason`; and every kept `full`-stage `expr` parses as a Python expression (ruff, and within
//!   CPython's 200-bracket nesting limit).
//! - `corpus`: every `tests/fixtures/*/test_*.py` and `problems/*/test_*.py`, every stage, twice
//!   (deterministic JSON); empty, BOM, CRLF/CR and other edge files; line endings do not change the
//!   result; small inputs the fuzzing found.
//! - `fuzz` (proptest): arbitrary strings, Python token soup, mutated bench files; and
//!   `explore_fuzz_failures`, an ignored tool that groups many failures.
//! - `size`: a 10 MB pytest file gives a result with thousands of assertions.
//! - `incremental`: `extract_with` (the worker's re-extraction after a keystroke, reusing what the
//!   edit cannot have changed) is `extract`, after random edits of every fixture, bench, review and
//!   generated file, their undos and chains of them (`INCREMENTAL_EDITS=N` edits per file).
//! - `incremental_review`: an outside reviewer's 47 targeted edits (shared module state, helpers,
//!   fixtures, duplicate names, carriage returns, NFKC names), each both ways at every stage.
//! - `incremental_edges`: a second review's cases (edits at a function's very end, async and nested
//!   tests, collection changed from a test body, chains across functions and stages, unusual
//!   characters) and sweeps of every one-character insertion and deletion of three files.
//! - `within`: `extract_within` (the page's bounded extraction) is `extract` or nothing.
//! - `depth`: inputs nested 10,000 deep, each extracted in a child process on a thread with the
//!   2 MiB stack `cargo test` gives its threads, so a stack overflow (which aborts the whole process)
//!   is reported per input with a clear message instead of killing this binary.
//!
//! Run: `cargo test --test properties` (`PROPTEST_CASES=N` changes the number of fuzz cases); one
//! suite: `cargo test --test properties fuzz::`.

mod checks;
mod corpus;
mod depth;
mod faithful;
mod fuzz;
mod incremental;
mod incremental_edges;
mod incremental_review;
mod size;
mod within;
