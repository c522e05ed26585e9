//! `extract_with_faithful`: under an earlier stage the page needs both that stage's extraction
//! and the faithful one, and gets them from one parse. Each must be exactly what `extract` gives
//! for its stage: with and without a bound, with and without a memo, on every file.

use bench_explorer::{extract, extract_with_faithful, extract_within, Memo, Stage};

use crate::checks::*;

/// What two separate extractions give: the stage's, and the faithful one under an earlier stage.
fn separately(
    src: &str,
    opts: &bench_explorer::Options,
) -> (
    bench_explorer::Extraction,
    Option<bench_explorer::Extraction>,
) {
    let faithful = (opts.stage != Stage::Full).then(|| {
        extract(
            src,
            &bench_explorer::Options {
                stage: Stage::Full,
                ..opts.clone()
            },
        )
    });
    (extract(src, opts), faithful)
}

#[test]
fn one_parse_gives_both_extractions() {
    let mut checked = 0;
    for (file, src) in corpus() {
        for stage in Stage::ALL {
            let opts = options(file, stage);
            let expected = separately(src, &opts);
            assert_eq!(
                extract_with_faithful(src, &opts, usize::MAX, None),
                Some(expected.clone()),
                "{file} {stage:?}"
            );
            // A bound answers exactly when `extract_within` does.
            for limit in [0, 1_000] {
                let within = extract_within(src, &opts, limit);
                let both = extract_with_faithful(src, &opts, limit, None);
                assert_eq!(within.is_some(), both.is_some(), "{file} {stage:?} {limit}");
                if let Some(both) = both {
                    assert_eq!(both, expected, "{file} {stage:?} within {limit}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} files and stages");
}

#[test]
fn with_a_memo_across_stages_and_edits() {
    // The worker keeps one memo for every stage: a stage change, then an edit, then another
    // stage, each compared with separate extractions.
    for (file, src) in corpus() {
        let mut memo = Memo::default();
        let edited = src.replacen("== ", "== 7 + ", 1);
        for (i, stage) in Stage::ALL.into_iter().enumerate() {
            for text in [src, edited.as_str()] {
                let opts = options(file, stage);
                assert_eq!(
                    extract_with_faithful(text, &opts, usize::MAX, Some(&mut memo)),
                    Some(separately(text, &opts)),
                    "{file} {stage:?} (step {i})"
                );
                if i % 2 == 1 {
                    memo.release();
                }
            }
        }
    }
}
