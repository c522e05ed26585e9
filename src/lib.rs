//! bench-explorer's extractor: turns a pytest file into standalone assertion expressions that a bench
//! loop can `eval` in the solution's namespace, keeping only what is faithful and saying why the rest
//! is dropped. See `ARCHITECTURE.md` for the map and `docs/contract.md` for the output.
//!
//! The library is pure: no I/O, no UI, no platform-specific types. The CLI (`crates/cli/`) and the web
//! page (`crates/web/`) are thin layers over [`extract`].

mod case;
mod collect;
mod conftest;
pub mod encoding;
mod extract;
mod flatten;
mod guard;
mod incremental;
mod legacy;
mod module;
mod names;
mod options;
mod portable;
mod pytest;
mod readable;
mod source;
mod stdlib;
mod unittest;
mod unseen;
mod unwalrus;
mod walk;

pub mod bench;
pub mod mutants;
pub mod mutation;
pub mod runner;
pub mod verdict;

pub mod model;
pub mod rules;
pub mod shape;
pub mod sort;
#[doc(hidden)]
pub mod synth;

pub use conftest::Conftest;
pub use extract::{extract, extract_with, extract_with_faithful, extract_within};
pub use incremental::{changed_region, Memo, Reuse, MAX_ASIDE};
pub use model::{Assertion, Extraction, Finding, RuleRef, Stage, Status, SyntaxError};
pub use options::{slug_from_path, Options};
pub use portable::parses_everywhere;
/// pytest's configuration file: whether its options may change how every test runs.
pub use pytest::config as pytest_config;
pub use pytest::ids::PytestVersion;
pub use readable::readable;
pub use rules::{Reason, Rule};
pub use shape::Shape;
