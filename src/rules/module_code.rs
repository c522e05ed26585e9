//! Module-level code: Code pytest runs when it imports the test file, its conftests and packages, before any test: module-level statements and imports.

declare_rules! {
    family ModuleCode, prefix "M", title "Module-level code",
    summary "Code pytest runs when it imports the test file, its conftests and packages, before any test: module-level statements and imports.";
}
