//! Fixtures: Fixtures a test requests: where they are defined, what their bodies do, their scope and parameters.

declare_rules! {
    family Fixtures, prefix "F", title "Fixtures",
    summary "Fixtures a test requests: where they are defined, what their bodies do, their scope and parameters.";
}
