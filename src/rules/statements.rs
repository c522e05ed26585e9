//! Statements in a test: Statements of a test body that the fold cannot replay inside one expression.

declare_rules! {
    family Statements, prefix "S", title "Statements in a test",
    summary "Statements of a test body that the fold cannot replay inside one expression.";
}
