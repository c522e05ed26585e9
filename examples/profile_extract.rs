fn main() {
    let src = bench_explorer::synth::test_file(10_000);
    let src = std::hint::black_box(src);
    let o = bench_explorer::Options::new("x.py");
    for _ in 0..20 {
        std::hint::black_box(bench_explorer::extract(&src, &o));
    }
}
