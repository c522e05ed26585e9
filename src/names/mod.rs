//! Names in expressions, in two halves: [`facts`] says what an expression reads, binds and calls
//! (with scopes, and in which position each read sits); [`render`] writes an expression back out as
//! source text with values substituted for names, parenthesised where precedence needs it.
//! [`imports`] spells a standard-library import as such a value.

mod facts;
mod imports;
mod render;

pub use facts::{
    collect_target_idents, collect_targets_vec, is_immutable_literal, is_literal_value, root_name,
    Facts, Ident, Load,
};
pub use imports::{
    import_value, is_import_value, merge_plain_imports, pickle_on_literals, stdlib_from_import,
    stdlib_import,
};
pub use render::{bracket_depth, precedence, render, Rendered, Replacement};
