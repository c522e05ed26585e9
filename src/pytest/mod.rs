//! pytest's own algorithms, re-implemented from its source (pytest 9): one concept per module.

pub mod compile_warnings;
pub mod config;
pub mod config_files;
pub mod fixture_body;
pub mod ids;
pub mod import_warnings;
pub mod log_config;
pub mod markexpr;
pub mod marks;
pub mod pyregex;
pub mod value;
pub mod warnings;
