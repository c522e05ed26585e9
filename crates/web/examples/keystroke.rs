//! The extraction worker's computation of one keystroke, natively (release build):
//! `cargo run --release -p bench-explorer-web --example keystroke [lines] [keys]`.
//!
//! It does what `worker.rs`'s `benchWorkerAnalyze` does after an edit, without the wasm glue:
//! extract with the worker's memo (`compute_with`), find what the page's result reuses
//! (`History::delta`), write the reply's parts, remember the result, and free what is set aside.
//! A digit is typed and deleted in turn in the middle of a generated file, as in
//! `benches/web.mjs`'s typing row. Prints the median and p90 of each phase, per stage.

use std::time::Instant;

use bench_explorer::{synth, Memo, Stage};
use bench_explorer_web::logic::delta::History;
use bench_explorer_web::logic::transfer::{compute_with, to_parts_keeping, Request};

fn main() {
    let mut args = std::env::args().skip(1);
    let lines: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2_000);
    let keys: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(400);
    let text = synth::test_file(lines);
    let at = text[..text.len() / 2].rfind("== 1\n").expect("an assert") + 4;
    let edited = format!("{}7{}", &text[..at], &text[at..]);
    println!(
        "worker keystroke, natively: {lines}-line file ({} bytes), {keys} keys",
        text.len()
    );
    println!(
        "{:<12} {:>14} {:>14} {:>14} {:>14} {:>14}",
        "stage", "extract", "delta", "parts", "remember+free", "total"
    );
    for stage in [Stage::Full, Stage::AsWritten] {
        let mut memo = Memo::default();
        let mut history = History::default();
        let mut phases: [Vec<f64>; 5] = Default::default();
        for i in 0..keys + 1 {
            let text = if i % 2 == 1 { &edited } else { &text };
            let req = Request {
                file: "test_scratch.py".into(),
                slug: None,
                stage,
                solution_modules: Vec::new(),
                pytest_version: String::new(),
                slug_is_real: false,
                id: i as u64 + 1,
                base: (i > 0).then_some(i as u64),
            };
            let t0 = Instant::now();
            let result = compute_with(text, &req, || 0.0, &mut memo);
            let t1 = Instant::now();
            let delta = history.delta(req.base, stage, text, &result.extraction.assertions);
            let t2 = Instant::now();
            let (parts, assertions) = to_parts_keeping(result, delta);
            std::hint::black_box(&parts);
            let t3 = Instant::now();
            let forgotten = history.remember(req.id, stage, text, assertions);
            drop(forgotten);
            drop(parts);
            memo.release();
            let t4 = Instant::now();
            if i == 0 {
                continue; // the first extraction has nothing to reuse
            }
            let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e3;
            for (k, v) in [ms(t0, t1), ms(t1, t2), ms(t2, t3), ms(t3, t4), ms(t0, t4)]
                .into_iter()
                .enumerate()
            {
                phases[k].push(v);
            }
        }
        let fig = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            format!("{:.3}/{:.3}", v[v.len() / 2], v[v.len() * 9 / 10])
        };
        let [a, b, c, d, e] = &mut phases;
        println!(
            "{:<12} {:>14} {:>14} {:>14} {:>14} {:>14}",
            stage.id(),
            fig(a),
            fig(b),
            fig(c),
            fig(d),
            fig(e)
        );
    }
    println!("(milliseconds, median/p90; `extract` is the extraction and the result's grouping and diagnostics)");
}
