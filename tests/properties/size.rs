//! Size: a 10 MB file.

use std::time::Instant;

use bench_explorer::{extract, synth, Options, Stage};

use crate::checks::*;

/// About `bytes` of realistic pytest: the synthetic file's header once, then its tests repeated
/// with unique names.
fn big_file(bytes: usize) -> String {
    let unit = synth::test_file(2_000);
    let split = unit
        .find("\ndef test_")
        .expect("the synthetic file has tests");
    let (header, body) = unit.split_at(split);
    let mut out = String::with_capacity(bytes + unit.len());
    out.push_str(header);
    let mut copy = 0;
    while out.len() < bytes {
        out.push_str(
            &body
                .replace("def test_", &format!("def test_c{copy}_"))
                .replace("class TestMisc", &format!("class TestC{copy}Misc")),
        );
        copy += 1;
    }
    out
}

#[test]
fn ten_megabyte_file() {
    let src = big_file(10 * 1024 * 1024);
    // Run on a thread with cargo test's default 2 MiB stack, whatever RUST_MIN_STACK says.
    let handle = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let t = Instant::now();
            let ex = extract(&src, &Options::new("test_big.py"));
            let took = t.elapsed();
            eprintln!(
                "10 MB file: {} bytes, {} lines, {} assertions ({} kept), {} syntax errors; extraction took {:.2?} (debug build)",
                src.len(),
                src.lines().count(),
                ex.assertions.len(),
                ex.kept().count(),
                ex.syntax_errors.len(),
                took
            );
            let check = check_extraction(&src, Stage::Full, &ex);
            (ex.assertions.len(), ex.kept().count(), ex.syntax_errors.len(), check)
        })
        .unwrap();
    let (total, kept, errors, check) = handle.join().expect("extracting a 10 MB file panicked");
    check.unwrap();
    assert_eq!(errors, 0, "the generated 10 MB file is valid Python");
    assert!(total > 10_000, "only {total} assertions from a 10 MB file");
    assert!(
        kept > 10_000,
        "only {kept} kept assertions from a 10 MB file"
    );
}
