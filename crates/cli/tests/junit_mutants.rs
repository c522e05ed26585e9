//! `check --mutants --junit`: the mutation results as a CI system reads them, for one small problem
//! run for real (CPython with pytest 9, as `check` needs; `PYTHON` names another interpreter). Each
//! mutant is one case of a `<problem>/<solution> mutants` suite; a survivor and a measurement
//! difference are failures whose text is the diff; a mutant killed at the time limit says so. The
//! shard path (`--jsonl`, then `report --junit`) writes the same XML.
//!
//! The candidates are this file's own code, so the run skips the sandbox (`--no-sandbox`): the test
//! is about the XML, and `tests/python/test_sandbox.py` checks the sandbox's JUnit property.

use std::path::{Path, PathBuf};
use std::process::Command;

const SOLUTION: &str = "def _check(n):
    if n < 0:
        raise ValueError(\"negative\")


def countdown(n):
    _check(n)
    steps = 0
    while n > 0:
        n -= 1
        steps += 1
    return steps
";

// `pytest.raises` in its call form is no check the extraction keeps: a mutant that only it
// kills is a measurement difference (pytest kills it, the checks do not).
const TEST: &str = "import pytest

from solution import countdown


def test_counts():
    assert countdown(3) == 3


def test_negative():
    pytest.raises(ValueError, countdown, -1)
";

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch() -> Scratch {
    let dir = std::env::temp_dir().join(format!("bench-explorer-junit-{}", std::process::id()));
    let problem = dir.join("bench").join("countdown");
    std::fs::create_dir_all(&problem).unwrap();
    std::fs::write(problem.join("solution.py"), SOLUTION).unwrap();
    std::fs::write(problem.join("test_countdown.py"), TEST).unwrap();
    Scratch(dir)
}

fn python() -> String {
    std::env::var("PYTHON").unwrap_or_else(|_| "python3".into())
}

fn run(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_bench-explorer"))
        .args(args)
        .output()
        .expect("run bench-explorer");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn check(dir: &Path, output: &[&str]) {
    let bench = dir.join("bench");
    let python = python();
    let mut args = vec![
        "check",
        bench.to_str().unwrap(),
        "--python",
        &python,
        "--no-sandbox",
        "--mutants",
        "--mutant-timeout",
        "1",
        "--jobs",
        "2",
    ];
    args.extend(output);
    run(&args);
}

/// The XML with every `time="…"` blanked (wall-clock times differ from run to run).
fn timeless(xml: &str) -> String {
    let mut out = String::new();
    let mut rest = xml;
    while let Some(at) = rest.find(" time=\"") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 7..];
        let end = after.find('"').expect("a closed attribute");
        out.push_str(" time=\"_\"");
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The lines of one suite, from its `<testsuite` line to its `</testsuite>`.
fn suite<'x>(xml: &'x str, name: &str) -> Vec<&'x str> {
    let open = format!("<testsuite name=\"{name}\"");
    let lines: Vec<&str> = xml.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim_start().starts_with(&open))
        .unwrap_or_else(|| panic!("no suite {name}:\n{xml}"));
    let end = start
        + lines[start..]
            .iter()
            .position(|l| l.trim() == "</testsuite>")
            .expect("the suite ends");
    lines[start..=end].to_vec()
}

#[test]
fn mutants_in_junit_one_case_each_survivors_and_differences_fail() {
    let dir = scratch();
    let junit = dir.0.join("check.xml");
    check(&dir.0, &["--junit", junit.to_str().unwrap()]);
    let xml = timeless(&std::fs::read_to_string(&junit).unwrap());

    // Well-formed XML, read by the parser CI tools written in Python use.
    let parsed = Command::new(python())
        .args([
            "-c",
            "import sys, xml.etree.ElementTree as ET\n\
             root = ET.parse(sys.argv[1]).getroot()\n\
             print(root.get('tests'), root.get('failures'), len(root.findall('.//testcase')), \
                   len(root.findall('.//failure')))",
            junit.to_str().unwrap(),
        ])
        .output()
        .expect("run python");
    assert!(
        parsed.status.success(),
        "{}",
        String::from_utf8_lossy(&parsed.stderr)
    );
    // 1 kept assertion (the call-form raises is none) and 17 mutants; failures: 2 survivors and
    // 1 difference (the solution itself passes).
    assert_eq!(String::from_utf8_lossy(&parsed.stdout).trim(), "18 3 18 3");
    assert!(
        xml.contains(
            r#"<testsuites name="bench-explorer check" tests="18" failures="3" errors="0">"#
        ),
        "{xml}"
    );

    let mutants = suite(&xml, "countdown/solution.py mutants");
    assert_eq!(
        mutants[0],
        r#"  <testsuite name="countdown/solution.py mutants" tests="17" failures="3" errors="0" skipped="0" time="_">"#
    );
    assert_eq!(
        mutants[1],
        concat!(
            r#"    <properties><property name="sandbox" value="none"/>"#,
            r#"<property name="mutation-score" value="0.8824"/><property name="generated" value="17"/>"#,
            r#"<property name="killed" value="15"/><property name="survived" value="2"/>"#,
            r#"<property name="timeouts" value="3"/><property name="crashes" value="0"/>"#,
            r#"<property name="differences" value="1"/></properties>"#
        )
    );
    let text = mutants.join("\n");
    let case = |id: &str| -> String {
        let start = text
            .find(&format!("name=\"{id} "))
            .unwrap_or_else(|| panic!("no case {id}:\n{text}"));
        let start = text[..start].rfind("<testcase").unwrap();
        let end = start + text[start..].find("</testcase>").unwrap() + "</testcase>".len();
        text[start..end].to_string()
    };
    assert_eq!(text.matches("<testcase ").count(), 17);
    // A survivor: a failure saying so, the diff as its text.
    assert_eq!(
        case("m002"),
        "<testcase classname=\"countdown.solution_py.mutants\" name=\"m002 [boundary] line 2: `&lt;` → `&lt;=`\" time=\"_\">\
         <failure type=\"survived\" message=\"survived (may be equivalent): line 2: `&lt;` → `&lt;=`\">\
         @@ line 2 @@\n-    if n &lt; 0:\n+    if n &lt;= 0:\n</failure>\
         <system-out>survived (may be equivalent); failing tests: none; failing checks: none</system-out></testcase>"
    );
    // pytest kills it (the call-form raises) and no kept check fails: a measurement difference.
    assert_eq!(
        case("m004"),
        "<testcase classname=\"countdown.solution_py.mutants\" name=\"m004 [remove-statement] line 7: `_check(n)` → `pass`\" time=\"_\">\
         <failure type=\"checks-miss\" message=\"measurement difference: pytest kills it, the checks do not \
         (pytest: test_negative; checks: none); killed: line 7: `_check(n)` → `pass`\">\
         @@ line 7 @@\n-    _check(n)\n+    pass\n</failure>\
         <system-out>killed; failing tests: test_negative; failing checks: none</system-out></testcase>"
    );
    // Killed by a test and a check: a passing case that names them.
    assert_eq!(
        case("m017"),
        "<testcase classname=\"countdown.solution_py.mutants\" name=\"m017 [return-none] line 12: `return steps` → `return None`\" time=\"_\">\
         <system-out>killed; failing tests: test_counts; failing checks: test_counts:7</system-out></testcase>"
    );
    // `n -= 1` removed loops forever: killed by the time limit, named so.
    assert_eq!(
        case("m009"),
        "<testcase classname=\"countdown.solution_py.mutants\" name=\"m009 [remove-statement] line 10: `n -= 1` → `pass`\" time=\"_\">\
         <system-out>killed by the time limit (the run gave no reply)</system-out></testcase>"
    );
    assert_eq!(text.matches("<failure ").count(), 3);
    assert_eq!(text.matches("killed by the time limit").count(), 3);

    // The solution's own suite is unchanged by `--mutants`.
    let own = suite(&xml, "countdown/solution.py");
    assert_eq!(own.len(), 4, "{own:#?}");
    assert_eq!(
        own[2],
        r#"    <testcase classname="countdown.solution_py" name="test_counts line 7"/>"#
    );

    // The shard path: `--jsonl` lines merged by `report` give the same XML.
    let lines = dir.0.join("lines.jsonl");
    check(&dir.0, &["--jsonl", lines.to_str().unwrap()]);
    let merged = dir.0.join("report.xml");
    run(&[
        "report",
        lines.to_str().unwrap(),
        "--junit",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(timeless(&std::fs::read_to_string(&merged).unwrap()), xml);
}
