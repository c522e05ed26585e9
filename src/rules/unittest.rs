//! unittest: `unittest.TestCase` classes as pytest runs them: setUp, tearDown, the assert methods.

declare_rules! {
    family Unittest, prefix "U", title "unittest",
    summary "`unittest.TestCase` classes as pytest runs them: setUp, tearDown, the assert methods.";
}
