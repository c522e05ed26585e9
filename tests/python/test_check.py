"""`bench-explorer check` and `report`, end to end: real pytest and the page's runner.py, per
(problem, solution) in limited subprocesses, verdicts from the library.

Run: python3 -m pytest tests/python/test_check.py -q (after `cargo build --bin bench-explorer`).
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import faithful as fx

PROBLEMS = fx.ROOT / "problems"
TEST_FILE = """from solution import inc


def test_one():
    assert inc(1) == 2


def test_two():
    result = inc(2)
    assert result == 3
"""
GOOD = "def inc(x):\n    return x + 1\n"
WRONG = "def inc(x):\n    return x\n"


def check(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(fx.BIN), "check", "--python", sys.executable, *map(str, args)],
        capture_output=True, text=True, timeout=timeout,
    )


def check_json(*args: str) -> tuple[int, dict]:
    proc = check(*args, "--json")
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def verdicts(report: dict) -> dict[str, int]:
    return report["totals"]["verdicts"]


def make_problem(bench, slug: str, solution: str, test: str = TEST_FILE):
    folder = bench / slug
    folder.mkdir(parents=True)
    (folder / f"test_{slug}.py").write_text(test)
    (folder / "solution.py").write_text(solution)
    return folder


@pytest.fixture(scope="module")
def references():
    return check_json(PROBLEMS)


def test_references_have_no_measurement_bug(references):
    code, report = references
    assert code == 0
    assert report["totals"]["pairs"] == report["totals"]["problems"] == 21
    assert verdicts(report).get("measurement-bug", 0) == 0
    assert verdicts(report).get("phantom-pass", 0) == 0
    assert verdicts(report)["agree"] > 180
    assert all(p["status"] == "ok" for p in report["pairs"])
    assert report["sandbox"] == ["bwrap"]  # the default, where bubblewrap can start


def test_stubs_are_all_solution_bugs():
    code, report = check_json(PROBLEMS, "--solution", "stub.py")
    assert code == 0
    assert {p["solution"] for p in report["pairs"]} == {"stub.py"}
    kept = [r for p in report["pairs"] for r in p["rows"] if r["status"] == "kept"]
    assert kept and all(r["verdict"] == "solution-bug" for r in kept)


def test_as_written_reports_the_write_ups_measurement_bugs(references):
    code, report = check_json(PROBLEMS, "--stage", "as-written")
    assert code == 1
    # The README's table (tests/python/test_stages.py computes the same run with drive.py).
    assert verdicts(report)["measurement-bug"] == 163
    assert verdicts(report)["agree"] == 32
    # Row for row, the same outcomes as the repository's own differential driver on one problem.
    folder = PROBLEMS / "word_ladder"
    extraction = fx.extract(folder / "test_word_ladder.py", stage="as-written", slug="word_ladder")
    run = fx.run_both(folder / "test_word_ladder.py", (folder / "solution.py").read_text(), extraction)
    [pair] = [p for p in report["pairs"] if p["problem"] == "word_ladder"]
    kept_rows = [r for r in pair["rows"] if r["status"] == "kept"]
    assert [r["eval"] for r in kept_rows] == [e["outcome"] for _, e in fx.kept_outcomes(extraction, run)]
    assert {t["name"]: t["outcome"] for t in pair["pytest"]} == fx.pytest_outcomes(run)


@pytest.mark.parametrize("stage, bugs", [("six-shapes", 1), ("seven-shapes", 0), ("full", 0)])
def test_later_stages(stage, bugs):
    code, report = check_json(PROBLEMS, "--stage", stage)
    assert verdicts(report).get("measurement-bug", 0) == bugs
    assert code == (1 if bugs else 0)


def test_runaway_flood_and_exit_are_contained(tmp_path):
    bench = tmp_path / "bench"
    make_problem(bench, "a_fine", GOOD)
    make_problem(bench, "b_runaway", "import time\n\ndef inc(x):\n    while True:\n        time.sleep(0.01)\n")
    make_problem(bench, "c_flood", "print('x' * 100_000_000)\n\ndef inc(x):\n    return x + 1\n")
    make_problem(bench, "d_exit", "import os\n\ndef inc(x):\n    os._exit(3)\n")
    proc = check(bench, "--timeout", "2", "--jobs", "2", "--json", timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout) < 1_000_000  # the flood is capped, not copied
    pairs = {p["problem"]: p for p in json.loads(proc.stdout)["pairs"]}
    assert pairs["a_fine"]["status"] == "ok"
    assert pairs["b_runaway"]["status"] == "timeout"
    assert "killed after 2 s" in pairs["b_runaway"]["detail"]
    assert pairs["c_flood"]["status"] == "ok"
    assert {r["verdict"] for r in pairs["c_flood"]["rows"]} == {"agree"}
    assert pairs["d_exit"]["status"] == "crashed"
    assert "status 3" in pairs["d_exit"]["detail"]
    for slug in ("b_runaway", "d_exit"):
        # A solution that never finished is a solution bug, never blamed on the extractor.
        assert {r["verdict"] for r in pairs[slug]["rows"]} == {"solution-bug"}, slug


def test_a_folder_of_candidates(tmp_path):
    bench = tmp_path / "bench"
    make_problem(bench, "inc", GOOD)
    candidates = tmp_path / "candidates" / "inc"
    candidates.mkdir(parents=True)
    (candidates / "model_a.py").write_text(GOOD)
    (candidates / "model_b.py").write_text(WRONG)
    (candidates / "model_c.py").write_text("def inc(x):\n    return x + 1 if x == 1 else 0\n")
    code, report = check_json(bench, "--solutions", tmp_path / "candidates")
    assert code == 0
    by = {p["solution"]: [r["verdict"] for r in p["rows"]] for p in report["pairs"]}
    assert by == {
        "model_a.py": ["agree", "agree"],
        "model_b.py": ["solution-bug", "solution-bug"],
        "model_c.py": ["agree", "solution-bug"],
    }


def test_a_lying_extraction_exits_1_and_names_the_assertion(tmp_path):
    bench = tmp_path / "bench"
    make_problem(bench, "inc", GOOD)
    proc = check(bench, "--stage", "as-written")
    assert proc.returncode == 1, proc.stderr
    assert "measurement bug" in proc.stdout and "result == 3" in proc.stdout


def test_shards_merged_by_report_equal_the_whole_run(tmp_path, references):
    _, whole = references
    files = []
    for k in (1, 2, 3):
        path = tmp_path / f"shard{k}.jsonl"
        proc = check(PROBLEMS, "--shard", f"{k}/3", "--jsonl", path)
        assert proc.returncode == 0, proc.stderr
        files.append(path)
    sizes = [len(f.read_text().splitlines()) for f in files]
    assert sum(sizes) == 21 and all(s == 7 for s in sizes)
    proc = subprocess.run([str(fx.BIN), "report", "--json", *map(str, files)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    merged = json.loads(proc.stdout)

    def timeless(report):
        return [{k: v for k, v in p.items() if k != "wall_ms"} for p in report["pairs"]]

    assert timeless(merged) == timeless(whole)
    assert merged["totals"] == whole["totals"]
    assert merged["sandbox"] == whole["sandbox"] == ["bwrap"]


def test_junit_parses_and_counts(tmp_path):
    bench = tmp_path / "bench"
    make_problem(bench, "inc", WRONG)
    junit = tmp_path / "out.xml"
    proc = check(bench, "--junit", junit)
    assert proc.returncode == 0, proc.stderr
    root = ET.parse(junit).getroot()
    assert root.tag == "testsuites" and root.get("failures") == "2"
    [suite] = root.findall("testsuite")
    assert suite.get("name") == "inc/solution.py"
    failures = [c.find("failure") for c in suite.findall("testcase")]
    assert [f.get("type") for f in failures] == ["solution-bug", "solution-bug"]


@pytest.mark.parametrize("args", [["--shard", "4/3"], ["--solution", "no_such.py"], ["no/such/bench"]])
def test_usage_errors_exit_2(args):
    proc = check(PROBLEMS, *args) if args[0].startswith("--") else check(*args)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stderr.strip()


def test_a_python_without_pytest_is_a_usage_error(tmp_path):
    proc = subprocess.run(
        [str(fx.BIN), "check", str(PROBLEMS / "word_ladder"), "--python", "/bin/false"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and "pytest" in proc.stderr


def test_each_pair_starts_as_a_fresh_interpreter_would(tmp_path):
    # The fork server warms up with runs that fail (so that what a failure's report fills is filled
    # once): no trace of them may reach a pair, such as pytest's record of the last failure.
    fresh = subprocess.run(
        [sys.executable, "-c", "import sys; print(hasattr(sys, 'last_value'), hasattr(sys, 'last_traceback'))"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    # Read at import: pytest itself deletes sys.last_* before each test's call.
    test = (
        "import sys\n"
        "from solution import inc\n\n"
        "AT_IMPORT = (hasattr(sys, 'last_value'), hasattr(sys, 'last_traceback'))\n\n\n"
        "def test_no_earlier_failure():\n"
        f"    assert AT_IMPORT == ({fresh[0]}, {fresh[1]})\n\n\n"
        "def test_inc():\n"
        "    assert inc(1) == 2\n"
    )
    make_problem(tmp_path, "fresh", GOOD, test)
    code, report = check_json(tmp_path, "--mutants")
    assert code == 0
    (pair,) = report["pairs"]
    outcomes = {t["name"]: t["outcome"] for t in pair["pytest"]}
    assert outcomes == {"test_no_earlier_failure": "passed", "test_inc": "passed"}
    # Each mutant is a pair of its own, after pairs whose tests failed: none sees an earlier failure.
    assert pair["mutants"]
    assert all("test_no_earlier_failure" not in m["killed_by_tests"] for m in pair["mutants"])


STDLIB_PATCH_TEST = """import time

time.time = lambda: 1000.0

from solution import stamp


def test_stamp():
    assert stamp() == 1000


def test_stamp_again():
    assert stamp() == 1000
"""
# The conftest imports the solution before the test file's module-level code patches `time.time`.
CONFTEST_IMPORTS_SOLUTION = "import solution\n"
# Reads the clock through the module: sees the patch, under pytest and in every check.
STAMP_THROUGH_MODULE = "import time\n\ndef stamp():\n    return int(time.time())\n"
# Took the function when it was imported, before the patch: pytest fails it; so must every check.
STAMP_TAKEN_EARLY = "from time import time\n\ndef stamp():\n    return int(time())\n"


@pytest.mark.parametrize("solution, verdict", [(STAMP_THROUGH_MODULE, "agree"), (STAMP_TAKEN_EARLY, "solution-bug")])
def test_replayed_stdlib_patches_stay_in_their_check_and_the_pytest_view_has_the_conftest(tmp_path, solution, verdict):
    """The pytest view runs with the folder's conftest (here: the solution imported before the test
    file's patch), and what one check's replay stores in `time` reaches neither the next check's
    import of the solution nor the pytest run of the same process; the problem given as `.` reads
    its conftest once."""
    folder = make_problem(tmp_path, "clock", solution, STDLIB_PATCH_TEST)
    (folder / "conftest.py").write_text(CONFTEST_IMPORTS_SOLUTION)
    proc = subprocess.run(
        [str(fx.BIN), "check", "--python", sys.executable, ".", "--json"],
        capture_output=True, text=True, timeout=300, cwd=folder,
    )
    assert proc.returncode in (0, 1), proc.stderr
    report = json.loads(proc.stdout)
    [pair] = report["pairs"]
    assert [t["outcome"] for t in pair["pytest"]] == (["passed"] * 2 if verdict == "agree" else ["failed"] * 2)
    assert verdicts(report) == {verdict: 2}, report
