//! Extraction speed, natively: the bare ruff parse against the full extraction, for a bench-sized
//! file and generated files up to 10,000 lines. Prints figures; asserts nothing (run it with
//! `cargo bench --bench extract`).

use std::hint::black_box;
use std::time::{Duration, Instant};

use bench_explorer::{extract, synth, Options};

/// Median time of `f` over enough runs to fill about half a second (at least 5).
fn median(mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    f();
    let once = start.elapsed().max(Duration::from_micros(1));
    let runs = ((Duration::from_millis(500).as_nanos() / once.as_nanos()) as usize).clamp(5, 2000);
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn measure(label: &str, source: &str) -> (f64, f64) {
    let parse = median(|| {
        black_box(ruff_python_parser::parse_module(black_box(source)).ok());
    });
    let options = Options::new("bench.py");
    let full = median(|| {
        black_box(extract(black_box(source), &options));
    });
    let (p, f) = (parse.as_secs_f64() * 1e3, full.as_secs_f64() * 1e3);
    let lines = source.lines().count();
    let mb_s = source.len() as f64 / 1e6 / (f / 1e3);
    println!(
        "{label:<34} {lines:>6} lines {:>8} B   parse {p:>8.3} ms   extract {f:>8.3} ms   ratio {:>4.2}   {mb_s:>6.1} MB/s",
        source.len(),
        f / p
    );
    (p, f)
}

fn main() {
    println!("bench-explorer extraction benchmark (native, release, median of repeated runs)\n");
    let bench_file = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/problems/dijkstra_shortest_path/test_dijkstra_shortest_path.py"
    ))
    .expect("the bench's dijkstra test file");
    measure("bench file (dijkstra_shortest_path)", &bench_file);
    let mut per_line = Vec::new();
    for lines in [1_000, 2_000, 5_000, 10_000] {
        let source = synth::test_file(lines);
        let (_, f) = measure(&format!("generated {lines}-line file"), &source);
        per_line.push((lines, f / lines as f64 * 1e3));
    }
    println!();
    for (lines, us) in &per_line {
        println!("  {lines:>6} lines: {us:.2} µs per line");
    }
    let (first, last) = (per_line[0].1, per_line[per_line.len() - 1].1);
    println!(
        "  growth 1k → 10k lines: {:.2}x time per line (1.0 = linear)",
        last / first
    );
}
