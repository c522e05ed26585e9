//! Checks in helpers: Asserts in functions of the test file that a test calls (`check(candidate)`).

declare_rules! {
    family Helpers, prefix "H", title "Checks in helpers",
    summary "Asserts in functions of the test file that a test calls (`check(candidate)`).";
}
