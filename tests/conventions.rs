//! The convention check (the hidden-spec-rule shape made checkable): a convention of `meta.toml` counts
//! as stated when the statement contains it, ignoring case and differences in whitespace. The bench's
//! Python checks read the result from `bench-explorer audit --json` rather than re-implementing it.

use bench_explorer::bench::{missing_conventions, Meta};

fn meta(conventions: &[&str]) -> Meta {
    Meta {
        title: String::new(),
        difficulty: String::new(),
        tags: Vec::new(),
        shapes: Vec::new(),
        note: String::new(),
        functions: Vec::new(),
        conventions: conventions.iter().map(|c| c.to_string()).collect(),
    }
}

#[test]
fn case_and_whitespace_do_not_matter() {
    let m = meta(&["Return 0 when  nothing matches", "Ties go left"]);
    let statement = "## Conventions\n\n- return 0 WHEN nothing\n  matches.\n";
    assert_eq!(missing_conventions(&m, statement), ["Ties go left"]);
}

#[test]
fn missing_conventions_keep_the_order_of_meta() {
    let m = meta(&["b rule", "a rule", "c rule"]);
    assert_eq!(
        missing_conventions(&m, "only the a rule here"),
        ["b rule", "c rule"]
    );
}

#[test]
fn a_convention_stated_anywhere_counts() {
    let m = meta(&["Strip the prefix"]);
    let markdown =
        "# T\n\nStrip the prefix, says the intro.\n\n## Conventions\n\n- Something else\n";
    assert!(missing_conventions(&m, markdown).is_empty());
}
