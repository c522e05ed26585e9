//! Times full extraction of synthetic files of growing size, built by repeating one generated
//! unit as the 10 MB property test does (`cargo run --release --example size_probe`).
fn main() {
    let unit = bench_explorer::synth::test_file(2_000);
    let split = unit.find("\ndef test_").expect("tests");
    let (header, body) = unit.split_at(split);
    for copies in [4usize, 16, 64, 256] {
        let mut src = header.to_string();
        for c in 0..copies {
            src.push_str(
                &body
                    .replace("def test_", &format!("def test_c{c}_"))
                    .replace("class TestMisc", &format!("class TestC{c}Misc")),
            );
        }
        let t = std::time::Instant::now();
        let ex = bench_explorer::extract(&src, &bench_explorer::Options::new("test_x.py"));
        println!(
            "{:>9} bytes: {:>6} assertions in {:>8.1?} ({:.1} MB/s)",
            src.len(),
            ex.assertions.len(),
            t.elapsed(),
            src.len() as f64 / t.elapsed().as_secs_f64() / 1e6
        );
    }
}
