//! The cases of unittest classes (`crate::unittest`), through the whole extraction.

use crate::{extract, Options, Status};

fn entries(source: &str) -> Vec<(String, Status, String)> {
    extract(source, &Options::new("test_x.py"))
        .assertions
        .into_iter()
        .map(|a| (a.test, a.status, a.expr.or(a.reason).unwrap_or_default()))
        .collect()
}

#[test]
fn a_parametrized_method_is_called_without_its_arguments() {
    let source = "import unittest\nimport pytest\nfrom solution import add\n\nclass TestAdd(unittest.TestCase):\n    @pytest.mark.parametrize('a', [1, 2])\n    def test_param(self, a):\n        self.assertEqual(add(a, 0), a)\n\n    @pytest.mark.parametrize('a', [1, 2])\n    def test_default(self, a=1):\n        self.assertEqual(add(a, 0), a)\n";
    let e = entries(source);
    assert_eq!(e.len(), 2, "{e:?}");
    assert_eq!(e[0].1, Status::Dropped);
    assert!(
        e[0].2
            .contains("pytest does not parametrize a `unittest.TestCase` method"),
        "{e:?}"
    );
    assert!(e[0].2.contains("line 6"), "{e:?}");
    // With a default the method runs (with it): the decorator is only said to be unknown.
    assert_eq!(e[1].1, Status::Dropped);
    assert!(e[1].2.contains("the test is decorated"), "{e:?}");
}
