//! Depth: 10,000-deep inputs, each in a child process on a 2 MiB stack.

use std::fmt::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bench_explorer::{extract, Stage, Status};

use crate::checks::*;

const DEEP_CASE_VAR: &str = "BENCH_EXPLORER_PROPERTIES_DEEP_CASE";
/// Set to run a deep case at another depth (to find where a failure starts).
const DEPTH_VAR: &str = "BENCH_EXPLORER_PROPERTIES_DEPTH";
/// Set (with the case) to run only ruff's parser, not the extractor, on the case.
const PARSE_ONLY_VAR: &str = "BENCH_EXPLORER_PROPERTIES_PARSE_ONLY";

fn depth() -> usize {
    std::env::var(DEPTH_VAR)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// Every deep case's name and the file it stands for.
fn deep_cases() -> Vec<(&'static str, String)> {
    deep_case_builders()
        .into_iter()
        .map(|(n, f)| (n, f()))
        .collect()
}

type Builder = Box<dyn Fn() -> String>;

fn deep_case_builders() -> Vec<(&'static str, Builder)> {
    fn in_test(expr: String) -> String {
        format!(
            "from solution import f\n\n\ndef test_before():\n    assert f(1) == 1\n\n\ndef test_deep():\n    assert {expr}\n\n\ndef test_after():\n    assert f(2) == 2\n"
        )
    }
    fn b(f: impl Fn(usize) -> String + 'static) -> Builder {
        Box::new(move || f(depth()))
    }
    vec![
        // Inputs that stress every recursive walk: long chains of one construct.
        (
            "parentheses",
            b(|n| in_test(format!("f({}1{}) == 1", "(".repeat(n), ")".repeat(n)))),
        ),
        (
            "not-chain",
            b(|n| in_test(format!("{}f(1)", "not ".repeat(n)))),
        ),
        (
            "unary-minus-parens",
            b(|n| in_test(format!("f({}1{}) == 1", "-(".repeat(n), ")".repeat(n)))),
        ),
        (
            "unary-minus-bare",
            b(|n| in_test(format!("f({}1) == 1", "-".repeat(n)))),
        ),
        (
            "plus-chain",
            b(|n| in_test(format!("f({}) == {n}", vec!["1"; n].join(" + ")))),
        ),
        (
            "nested-lists",
            b(|n| in_test(format!("f({}1{}) == 1", "[".repeat(n), "]".repeat(n)))),
        ),
        (
            "nested-lambdas",
            b(|n| in_test(format!("f({}1) == 1", "lambda: ".repeat(n)))),
        ),
        (
            "attribute-chain",
            b(|n| in_test(format!("f(1){} == 1", ".x".repeat(n)))),
        ),
        (
            "nested-ifs",
            b(|n| {
                // 10,000 nested `if` blocks, one more space of indentation per level, the assert innermost.
                let mut s = String::from("from solution import f\n\n\ndef test_deep():\n");
                for depth in 1..=n {
                    writeln!(s, "{}if f({depth}):", " ".repeat(depth)).unwrap();
                }
                writeln!(s, "{}assert f(1) == 1", " ".repeat(n + 1)).unwrap();
                s.push_str("\n\ndef test_after():\n    assert f(2) == 2\n");
                s
            }),
        ),
        // More of the same kind.
        (
            "call-chain",
            b(|n| in_test(format!("f(1){} == 1", "()".repeat(n)))),
        ),
        (
            "subscript-chain",
            b(|n| in_test(format!("f(1){} == 1", "[0]".repeat(n)))),
        ),
        (
            "comparison-chain",
            b(|n| in_test(format!("f(1){}", " < 2".repeat(n)))),
        ),
        (
            "conditional-chain",
            b(|n| in_test(format!("f(1) == 1{}", " if x else 1".repeat(n)))),
        ),
        (
            "await-chain",
            b(|n| {
                format!(
                    "async def test_deep():\n    assert {}f(1)\n",
                    "await ".repeat(n)
                )
            }),
        ),
        (
            "nested-dicts",
            b(|n| in_test(format!("f({}1{}) == 1", "{1: ".repeat(n), "}".repeat(n)))),
        ),
        (
            "nested-generators",
            b(|n| {
                in_test(format!(
                    "f({}1{}) == 1",
                    "(x for x in ".repeat(n),
                    ")".repeat(n)
                ))
            }),
        ),
        (
            "string-concatenation",
            b(|n| in_test(format!("f({}) == 1", "'a' ".repeat(n)))),
        ),
        (
            "nested-defs",
            b(|n| {
                let mut s = String::new();
                for depth in 0..n {
                    writeln!(s, "{}def test_{depth}():", " ".repeat(depth)).unwrap();
                }
                writeln!(s, "{}assert f(1) == 1", " ".repeat(n)).unwrap();
                s
            }),
        ),
        // Ways around a guard that estimates depth per line from brackets, operators and keywords.
        (
            "lambda-with-params",
            b(|n| in_test(format!("f({}1) == 1", "lambda a, b: ".repeat(n)))),
        ),
        (
            "fstring-parentheses",
            b(|n| {
                in_test(format!(
                    "f(f\"{{{}1{}}}\") == '1'",
                    "(".repeat(n),
                    ")".repeat(n)
                ))
            }),
        ),
        (
            "fstring-nested-lists",
            b(|n| {
                in_test(format!(
                    "f(f\"{{{}1{}}}\") == '1'",
                    "[".repeat(n),
                    "]".repeat(n)
                ))
            }),
        ),
        (
            "fstring-not-chain",
            b(|n| in_test(format!("f(f\"{{{}1}}\") == 'False'", "not ".repeat(n)))),
        ),
        (
            "nested-fstrings",
            b(|n| {
                // f"{f'{f"{...}"}'}" with alternating quotes.
                let mut fs = String::from("1");
                for i in 0..n {
                    let q = if i % 2 == 0 { '\'' } else { '"' };
                    fs = format!("f{q}{{{fs}}}{q}");
                }
                in_test(format!("f({fs}) == '1'"))
            }),
        ),
        (
            "crlf-continued-not-chain",
            b(|n| in_test(format!("{}f(1)", "not \\\r\n".repeat(n)))),
        ),
        (
            "crlf-continued-plus-chain",
            b(|n| in_test(format!("{}f(1) == 1", "1 + \\\r\n".repeat(n)))),
        ),
        (
            "crlf-continued-nested-lambdas",
            b(|n| in_test(format!("{}f(1)", "lambda: \\\r\n".repeat(n)))),
        ),
        // Depth that no line has but the output would: locals each wrapping the one before, all
        // inlined into one assert; the same through module constants and through fixtures.
        (
            "inlined-locals-chain",
            b(|n| {
                let mut s =
                    String::from("from solution import f\n\n\ndef test_deep():\n    x0 = f(1)\n");
                for i in 1..n {
                    writeln!(s, "    x{i} = [x{}]", i - 1).unwrap();
                }
                writeln!(s, "    assert f(x{}) == 1", n - 1).unwrap();
                s
            }),
        ),
        (
            "module-constant-chain",
            b(|n| {
                let mut s = String::from("from solution import f\n\nC0 = 1\n");
                for i in 1..n {
                    writeln!(s, "C{i} = [C{}]", i - 1).unwrap();
                }
                writeln!(s, "\n\ndef test_deep():\n    assert f(C{}) == 1", n - 1).unwrap();
                s
            }),
        ),
        (
            "fixture-chain",
            b(|n| {
                let mut s = String::from("import pytest\nfrom solution import f\n\n@pytest.fixture\ndef v0():\n    return 1\n");
                for i in 1..n {
                    writeln!(
                        s,
                        "\n@pytest.fixture\ndef v{i}(v{}):\n    return [v{}]",
                        i - 1,
                        i - 1
                    )
                    .unwrap();
                }
                writeln!(
                    s,
                    "\n\ndef test_deep(v{}):\n    assert f(v{}) == 1",
                    n - 1,
                    n - 1
                )
                .unwrap();
                s
            }),
        ),
        // 10,000 statements of stateful setup folded into one expression.
        (
            "folded-setup",
            b(|n| {
                let mut s = String::from(
                    "from solution import Cache\n\n\ndef test_deep():\n    c = Cache()\n",
                );
                for i in 0..n {
                    writeln!(s, "    c.put({i}, {i})").unwrap();
                }
                s.push_str("    assert c.get(1) == 1\n");
                s
            }),
        ),
    ]
}

/// The depth guard blanks a too-deep statement, but the contract still lists every assert inside a
/// test ("skipped ones are dropped, not silently missing"): also when the blanked line holds more
/// than a lone assert.
#[test]
fn too_deep_asserts_are_listed_as_dropped() {
    let deep = format!("f({}1{}) == 1", "(".repeat(500), ")".repeat(500));
    let cases = [
        (
            "an assert after another statement on its line",
            format!("from solution import f\n\ndef test_a():\n    x = 1; assert {deep}\n\ndef test_b():\n    assert f(2) == 2\n"),
            2,
        ),
        (
            "two asserts on one line",
            format!("from solution import f\n\ndef test_a():\n    assert {deep}; assert f(3) == 3\n"),
            2,
        ),
        (
            "a one-line test",
            format!("from solution import f\n\ndef test_a(): assert {deep}\n"),
            1,
        ),
        (
            "a lone assert",
            format!("from solution import f\n\ndef test_a():\n    assert {deep}\n"),
            1,
        ),
    ];
    let mut failures = Vec::new();
    for (what, src, want) in &cases {
        let ex = extract(src, &options("test_deep.py", Stage::Full));
        if let Err(e) = check_extraction(src, Stage::Full, &ex) {
            failures.push(format!("{what}: {e}"));
        }
        if ex.syntax_errors.is_empty() {
            failures.push(format!("{what}: the too-deep statement is not reported"));
        }
        if ex.assertions.len() != *want {
            let got: Vec<String> = ex
                .assertions
                .iter()
                .map(|a| format!("{} line {} {:?}", a.test, a.line, a.status))
                .collect();
            failures.push(format!(
                "{what}: {} assertion entries instead of {want}: {got:?}",
                ex.assertions.len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// In the child process: extract one deep case on a 2 MiB thread, in every stage, and check it.
/// Not a test by itself: `deep_inputs_do_not_overflow` runs it (ignored tests included) in a child
/// process with the case's name in `DEEP_CASE_VAR`, and reads its verdict from the output.
#[test]
#[ignore = "run by deep_inputs_do_not_overflow, one child process per case"]
fn deep_case_child() {
    let name = std::env::var(DEEP_CASE_VAR).unwrap_or_else(|_| {
        panic!(
            "deep_case_child needs a case: {DEEP_CASE_VAR}=<name> \
             cargo test --test properties depth::deep_case_child -- --exact --ignored --nocapture"
        )
    });
    let src = deep_case_builders()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no deep case named {name}"))
        .1();
    if std::env::var_os(PARSE_ONLY_VAR).is_some() {
        let parsed = std::thread::Builder::new()
            .name(format!("parse-only-{name}"))
            .stack_size(2 << 20)
            .spawn(move || {
                let parsed = ruff_python_parser::parse_unchecked(
                    &src,
                    ruff_python_parser::ParseOptions::from(ruff_python_parser::Mode::Module),
                );
                parsed.errors().len()
            })
            .unwrap()
            .join();
        if let Ok(errors) = parsed {
            println!("PARSE-ONLY-OK {errors} errors");
        }
        return;
    }
    let handle = std::thread::Builder::new()
        .name(format!("deep-{name}"))
        .stack_size(2 << 20)
        .spawn(move || -> Result<String, String> {
            let mut report = String::new();
            for stage in Stage::ALL {
                let t = Instant::now();
                let ex = extract(&src, &options("test_deep.py", stage));
                let json = serde_json::to_string(&ex).expect("serialises");
                write!(
                    report,
                    "[{}: {} assertions, {} kept, {} syntax errors, {} JSON bytes, {:.2?}] ",
                    stage.id(),
                    ex.assertions.len(),
                    ex.kept().count(),
                    ex.syntax_errors.len(),
                    json.len(),
                    t.elapsed()
                )
                .unwrap();
                // Range checks here; kept exprs are checked below on a big stack, so that a deep
                // kept expr fails with a message instead of overflowing the checker itself.
                let mut shallow = ex.clone();
                for a in &mut shallow.assertions {
                    if a.status == Status::Kept {
                        a.expr = Some("True".into());
                    }
                }
                check_extraction(&src, stage, &shallow)?;
                if stage == Stage::Full {
                    let exprs: Vec<(String, u32)> = ex
                        .kept()
                        .filter_map(|a| Some((a.expr.clone()?, a.line)))
                        .collect();
                    std::thread::Builder::new()
                        .stack_size(1 << 30)
                        .spawn(move || {
                            exprs.iter().try_for_each(|(e, line)| {
                                check_kept_expr(e).map_err(|why| {
                                    format!("stage full, assertion on line {line}: {why}")
                                })
                            })
                        })
                        .unwrap()
                        .join()
                        .unwrap()?;
                }
            }
            Ok(report)
        })
        .unwrap();
    match handle.join() {
        Ok(Ok(report)) => println!("DEEP-CASE-OK {report}"),
        Ok(Err(e)) => println!("DEEP-CASE-INVALID {e}"),
        Err(e) => println!("DEEP-CASE-PANIC {}", panic_message(&e)),
    }
}

enum ChildRun {
    Ok(String),
    Overflow,
    Panic(String),
    Invalid(String),
    Timeout(Duration),
    Failed(String),
}

/// Runs `deep_case_child` in a fresh process for one case (the extractor, or ruff's parser alone),
/// giving it `limit` to finish.
fn run_child(name: &str, parse_only: bool, limit: Duration) -> ChildRun {
    let exe = std::env::current_exe().expect("the test binary's path");
    let mut command = Command::new(exe);
    command
        .args([
            "depth::deep_case_child",
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DEEP_CASE_VAR, name)
        .env_remove("RUST_MIN_STACK")
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if parse_only {
        command.env(PARSE_ONLY_VAR, "1");
    }
    let mut child = command
        .spawn()
        .expect("run the test binary for one deep case");
    // Drain the pipes on threads so a chatty child cannot block on a full pipe.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut out, &mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut err, &mut s);
        s
    });
    let t = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if t.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (stdout, stderr) = (out.join().unwrap(), err.join().unwrap());
    let after = |marker: &str| {
        stdout
            .lines()
            .find_map(|l| l.split_once(marker).map(|(_, r)| r.to_string()))
    };
    let Some(status) = status else {
        return ChildRun::Timeout(limit);
    };
    if stderr.contains("has overflowed its stack") {
        return ChildRun::Overflow;
    }
    let ok = if parse_only {
        "PARSE-ONLY-OK "
    } else {
        "DEEP-CASE-OK "
    };
    if let (true, Some(report)) = (status.success(), after(ok)) {
        return ChildRun::Ok(report);
    }
    if let Some(why) = after("DEEP-CASE-INVALID ") {
        return ChildRun::Invalid(why);
    }
    if let Some(why) = after("DEEP-CASE-PANIC ") {
        return ChildRun::Panic(why);
    }
    let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
    ChildRun::Failed(format!("exited with {status}: {}", tail.join(" | ")))
}

/// Time for one deep case: generous for a debug build on a loaded two-core machine (CI shares it
/// with other jobs), scaled with the input's size, so only a hang or a superlinear blow-up runs
/// out of it. The speed itself is measured by the benchmarks, not here.
fn time_limit(bytes: usize) -> Duration {
    Duration::from_secs(120) + Duration::from_millis((bytes / 100) as u64)
}

#[test]
fn deep_inputs_do_not_overflow() {
    let cases = deep_cases();
    let queue = std::sync::Mutex::new((0..cases.len()).collect::<Vec<_>>());
    let results = std::sync::Mutex::new(vec![None; cases.len()]);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let Some(i) = queue.lock().unwrap().pop() else {
                    return;
                };
                let (name, src) = &cases[i];
                let t = Instant::now();
                let limit = time_limit(src.len());
                let outcome = match run_child(name, false, limit) {
                    ChildRun::Ok(report) => Ok(format!(
                        "deep case {name} ({} bytes): ok in {:.2?} {report}",
                        src.len(),
                        t.elapsed()
                    )),
                    failure => {
                        let why = match failure {
                            ChildRun::Overflow => "STACK OVERFLOW on a 2 MiB stack".to_string(),
                            ChildRun::Panic(p) => format!("PANIC: {p}"),
                            ChildRun::Invalid(e) => format!("INVALID RESULT: {e}"),
                            ChildRun::Timeout(limit) => format!("NO RESULT within {limit:?}"),
                            ChildRun::Failed(e) => format!("FAILED: {e}"),
                            ChildRun::Ok(_) => unreachable!(),
                        };
                        // Is it ruff's parser or the extractor? Parse the same text alone.
                        let parser = match run_child(name, true, limit) {
                            ChildRun::Ok(_) => "ruff's parser alone handles this input",
                            ChildRun::Overflow => "ruff's parser alone overflows too",
                            _ => "ruff's parser alone fails too",
                        };
                        Err(format!("{name} ({} bytes): {why} ({parser})", src.len()))
                    }
                };
                results.lock().unwrap()[i] = Some(outcome);
            });
        }
    });
    let mut failures = Vec::new();
    for outcome in results.into_inner().unwrap().into_iter().flatten() {
        match outcome {
            Ok(line) => eprintln!("{line}"),
            Err(line) => failures.push(line),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} deep inputs failed (one alone: \
         {DEEP_CASE_VAR}=<name> cargo test --test properties depth::deep_case_child -- --exact --ignored --nocapture):\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
}
