//! `extract_within`: the bounded extraction the page runs on its main thread for a small text. It
//! returns either exactly what `extract` returns or nothing (never a partial result), and nothing
//! once the kept expressions would exceed the bound.

use bench_explorer::{extract, extract_within, Stage};

use crate::checks::*;

/// Characters of kept expressions in an extraction.
fn written(ex: &bench_explorer::Extraction) -> usize {
    ex.assertions
        .iter()
        .filter_map(|a| a.expr.as_ref())
        .map(String::len)
        .sum()
}

#[test]
fn within_is_extract_or_nothing() {
    for (file, src) in corpus() {
        for stage in Stage::ALL {
            let opts = options(file, stage);
            let full = extract(src, &opts);
            assert_eq!(
                extract_within(src, &opts, usize::MAX).as_ref(),
                Some(&full),
                "{file} {stage:?}: without a bound"
            );
            let mut answered_at = None;
            for limit in [0, 10, 100, 1_000, 10_000, 100_000] {
                match extract_within(src, &opts, limit) {
                    Some(ex) => {
                        assert_eq!(
                            ex, full,
                            "{file} {stage:?} within {limit}: a partial result"
                        );
                        answered_at.get_or_insert(limit);
                    }
                    None => assert!(
                        answered_at.is_none(),
                        "{file} {stage:?}: answered within {answered_at:?} but not within {limit}"
                    ),
                }
            }
        }
        // What is kept was written (a kept expression may only be refused afterwards): a bound
        // below that never answers.
        let opts = options(file, Stage::Full);
        let kept = written(&extract(src, &opts));
        if kept > 0 {
            assert_eq!(
                extract_within(src, &opts, kept - 1),
                None,
                "{file}: answered within less than it keeps"
            );
        }
    }
}

#[test]
fn a_quadratic_test_is_refused_early() {
    // One test of put/assert pairs: each assert replays every put before it, so what the
    // extraction writes grows with the square of the test's length.
    let mut src =
        String::from("from solution import Cache\n\ndef test_pairs():\n    c = Cache(4)\n");
    for i in 0..100 {
        src.push_str(&format!(
            "    c.put({i}, {i})\n    assert c.get({i}) == {i}\n"
        ));
    }
    let opts = options("test_pairs.py", Stage::Full);
    let full = extract(&src, &opts);
    assert!(written(&full) > 200_000, "{} characters", written(&full));
    assert_eq!(extract_within(&src, &opts, 65_536), None);
    for stage in Stage::ALL {
        assert_eq!(
            extract_within(&src, &options("test_pairs.py", stage), 65_536),
            None,
            "{stage:?}"
        );
    }
    // Ten pairs are well within.
    let small: String = src.lines().take(4 + 20).map(|l| format!("{l}\n")).collect();
    let opts = options("test_pairs.py", Stage::Full);
    assert_eq!(
        extract_within(&small, &opts, 65_536),
        Some(extract(&small, &opts))
    );
}
