//! The Unicode names table (crates/unicode-names): in the page's wasm it is a separate file, which
//! the extraction worker fetches only for a text that contains `\N`. When it cannot, the parser
//! rejects every `\N{name}` (other than the algorithmic names) as an unknown name, and the page
//! says why at each such syntax error, instead of letting it pass for the file's own error.

use bench_explorer::model::SyntaxError;

/// What ruff's parser says about a `\N{...}` whose name it does not know.
pub const UNKNOWN_NAME: &str = "Got unexpected unicode";

/// The message for a text that needed the table when it could not be loaded.
pub fn not_loaded(file: &str, reason: &str) -> String {
    format!(
        "The Unicode names table ({file}) could not be loaded ({reason}), so this page cannot \
         decode \"\\N{{...}}\" escapes: their syntax errors below may be wrong (the CLI decodes \
         them). Reload the page to try again."
    )
}

/// Append `notice` to each unknown-name syntax error; how many there were.
pub fn annotate(errors: &mut [SyntaxError], notice: &str) -> usize {
    let mut n = 0;
    for e in errors.iter_mut().filter(|e| e.message == UNKNOWN_NAME) {
        e.message = format!("{UNKNOWN_NAME}. {notice}");
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(message: &str) -> SyntaxError {
        SyntaxError {
            line: 1,
            column: 5,
            message: message.into(),
            start: 4,
            end: 9,
        }
    }

    #[test]
    fn only_unknown_name_errors_are_annotated() {
        let notice = not_loaded("unicode-names-x.bin", "HTTP 404");
        assert!(notice.contains("unicode-names-x.bin") && notice.contains("HTTP 404"));
        let mut errors = vec![error(UNKNOWN_NAME), error("Expected an expression")];
        assert_eq!(annotate(&mut errors, &notice), 1);
        assert!(errors[0].message.starts_with(UNKNOWN_NAME));
        assert!(errors[0].message.ends_with(&notice));
        assert_eq!(errors[1].message, "Expected an expression");
    }

    /// The page audits the bench on its own thread, possibly before any worker has loaded the
    /// table: a bench file with a `\N{...}` escape would be audited wrongly there.
    #[test]
    fn no_bench_file_needs_the_table() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems");
        let mut files = 0;
        for dir in std::fs::read_dir(root).unwrap() {
            for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
                let path = f.unwrap().path();
                if path.extension().is_some_and(|e| e == "py") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    assert!(
                        !unicode_names2::may_need_table(&text),
                        "{} has a \\N escape: the page's own audit would parse it without the \
                         Unicode names table (crates/unicode-names)",
                        path.display()
                    );
                    files += 1;
                }
            }
        }
        assert!(files > 20, "{files} bench files");
    }

    /// The parser's message is the one this module looks for (natively the table is compiled in,
    /// so an unknown name is the only way to get it).
    #[test]
    fn the_parser_reports_an_unknown_name_with_that_message() {
        let e = bench_explorer::extract(
            "def test_a():\n    assert \"\\N{NO SUCH NAME}\" == \"x\"\n",
            &bench_explorer::Options::default(),
        );
        assert!(
            e.syntax_errors.iter().any(|s| s.message == UNKNOWN_NAME),
            "{:?}",
            e.syntax_errors
        );
    }
}
