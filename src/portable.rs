//! Portable output: a kept expression must parse under every Python the input file parses under,
//! from 3.9 on. ruff's parser reports syntax newer than a target version (an f-string nesting the
//! quotes that encloses it, `except*`, …) as unsupported-syntax errors; none may appear at 3.9.

use ruff_python_ast::PythonVersion;
use ruff_python_parser::{parse, Mode, ParseOptions};

/// Whether `expr` parses as an expression under Python 3.9 (and so under every later version).
pub fn parses_everywhere(expr: &str) -> bool {
    let options = ParseOptions::from(Mode::Expression).with_target_version(PythonVersion::PY39);
    parse(expr, options).is_ok_and(|parsed| parsed.unsupported_syntax_errors().is_empty())
}

#[cfg(test)]
mod tests {
    use super::parses_everywhere;

    #[test]
    fn nested_quotes_in_an_f_string_need_python_3_12() {
        assert!(parses_everywhere(r#"f"Hello, {'Ada'}!""#));
        assert!(!parses_everywhere(r#"f"Hello, {"Ada"}!""#));
        assert!(!parses_everywhere(r#"f"{'\x1b[31m'}""#));
        assert!(parses_everywhere("(lambda: (x := 1, x == 1)[-1])()"));
        assert!(!parses_everywhere("f("));
    }
}
