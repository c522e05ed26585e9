//! `unittest.TestCase` classes in a pytest file, as pytest collects them: never silent about their
//! checks.
//!
//! pytest's unittest plugin (`_pytest/unittest.py`, `pytest_pycollect_makeitem`) collects every
//! class of the module that subclasses `unittest.TestCase`, whatever its name, and runs each of its
//! methods whose name starts with `test` (unittest's `TestLoader.testMethodPrefix`) as the test
//! `Class::method`. The checks such a test makes are calls of unittest's assert methods
//! (`self.assertEqual(…)`, `with self.assertRaises(E):`) and plain `assert` statements.
//!
//! Each `test*` method is a [`Case`] (`cases`), flattened like any test: its instance is written
//! as a plain `unittest.TestCase()` (setup.rs), which is exact where the method reads the instance
//! only for unittest's own assert methods (not redefined by the class) and for attributes it sets
//! itself, and the class runs nothing around the test (no `setUp`, `tearDown`, decorators, class
//! body code). A top-level `self.assertEqual(a, b)` is kept as `<the call> is None`: unittest's
//! own comparison, true when it returns, raising (a fail) when the check fails. Otherwise every
//! check of the method is dropped with the reason.

mod cases;
mod checks;
mod classes;
mod findings;
mod reasons;
mod testcase;

pub use cases::cases;
pub use checks::{check_call, nested_checks, statement_check};
pub use classes::{is_unittest_base, testcase_classes};
pub use findings::{helper_method_findings, unknown_classes};
pub use testcase::is_check_method;
