//! Names outside the test's locals (`crate::flatten`'s `resolve`), through the whole extraction.

use crate::{extract, Options, Status};

fn first(test: &str) -> crate::Assertion {
    extract(test, &Options::new("tests/test_x.py"))
        .assertions
        .remove(0)
}

#[test]
fn sys_values_fixed_for_the_interpreter_are_spelled_out() {
    let a = first("import sys\nfrom solution import f\n\ndef test_f():\n    assert f(sys.maxsize) and sys.version_info >= (3,)\n");
    assert_eq!(a.status, Status::Kept, "{:?}", a.reason);
    assert_eq!(
        a.expr.as_deref(),
        Some("f(__import__(\"sys\").maxsize) and __import__(\"sys\").version_info >= (3,)")
    );
}

#[test]
fn any_other_read_of_sys_is_not() {
    // `argv` is pytest's in pytest; `modules` reaches the solution; `sys` alone may be passed on.
    for read in [
        "sys.argv",
        "sys.modules",
        "sys",
        "sys.platform and sys.path",
    ] {
        let a = first(&format!(
            "import sys\nfrom solution import f\n\ndef test_f():\n    assert f({read})\n"
        ));
        assert_eq!(a.status, Status::Dropped, "{read}: {:?}", a.expr);
    }
}
