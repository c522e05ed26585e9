"""`bench-explorer check --mutants`: mutants of the reference run both ways, and an independent count.

For a sample of mutants, the mutated solution is written to a temporary folder beside the problem's
test file and pytest alone runs there (a fresh interpreter, no runner.py, no sandbox): its exit status
must give the same killed / survived verdict as `check --mutants`.

Run: python3 -m pytest tests/python/test_mutants.py -q (after `cargo build --bin bench-explorer`).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

import faithful as fx

PROBLEMS = fx.ROOT / "problems"
# Small solutions with survivors and without mutants that loop forever (each costs the time limit).
SAMPLE = ["coin_change", "lru_cache", "merge_intervals"]


def check(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(fx.BIN), "check", "--python", sys.executable, *map(str, args)],
        capture_output=True, text=True, timeout=timeout,
    )


@pytest.fixture(scope="module")
def report() -> dict:
    proc = check(*(PROBLEMS / slug for slug in SAMPLE), "--mutants", "--json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_every_problem_has_a_score_and_a_kill_matrix(report):
    summary = report["mutants"]
    assert [p["problem"] for p in summary["problems"]] == SAMPLE
    for score, pair in zip(summary["problems"], report["pairs"]):
        runs = pair["mutants"]
        assert score["generated"] == len(runs) >= 5
        killed = [m for m in runs if m["outcome"] != "survived"]
        assert score["killed"] == len(killed)
        assert score["score"] == pytest.approx(len(killed) / len(runs))
        assert [m["id"] for m in runs] == sorted(m["id"] for m in runs)
        checks = {f'{r["test"]}:{r["line"]}' for r in pair["rows"] if r["status"] == "kept"}
        tests = {t["name"] for t in pair["pytest"]}
        for m in runs:
            assert m["diff"].startswith(f'@@ line {m["line"]} @@\n-')
            if m["outcome"] == "killed":
                assert m["killed_by_tests"], m
            if m["outcome"] == "survived":
                assert not m["killed_by_tests"], m
            assert set(m["killed_by_tests"]) <= tests
            assert set(m["killed_by_checks"]) <= checks
            # The faithful extraction: the checks kill exactly the mutants pytest kills.
            assert m.get("difference") is None, m
    assert summary["generated"] == sum(p["generated"] for p in summary["problems"])
    assert summary["differences"] == 0
    # These three tests files leave some mutants alive (coin_change's `1` → `2` in a bound, …).
    assert summary["survived"] > 0


def pytest_alone(slug: str, source: str, tmp_path) -> str:
    folder = tmp_path / slug
    shutil.copytree(PROBLEMS / slug, folder)
    (folder / "solution.py").write_text(source)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", str(folder)],
            cwd=folder, capture_output=True, text=True, timeout=10,
        )
    except subprocess.TimeoutExpired:
        return "timeout"
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    return "survived" if proc.returncode == 0 else "killed"


def apply_diff(source: str, diff: str) -> str:
    """The mutant, applied by hand from its diff: the `-` lines at `@@ line N @@` become the `+` lines."""
    head, *body = diff.splitlines()
    assert head.startswith("@@ line ") and head.endswith(" @@"), head
    start = int(head[len("@@ line "):-3]) - 1
    old = [line[1:] for line in body if line.startswith("-")]
    new = [line[1:] for line in body if line.startswith("+")]
    lines = source.splitlines()
    assert lines[start:start + len(old)] == old, (diff, lines[start:start + len(old)])
    lines[start:start + len(old)] = new
    return "\n".join(lines) + "\n"


def test_the_verdicts_agree_with_pytest_alone(report, tmp_path):
    """Every survivor and every third killed mutant, applied by hand from its diff and run with
    pytest alone."""
    sampled = 0
    for pair in report["pairs"]:
        slug = pair["problem"]
        source = (PROBLEMS / slug / "solution.py").read_text()
        runs = pair["mutants"]
        killed = [m for m in runs if m["outcome"] == "killed"]
        sample = [m for m in runs if m["outcome"] == "survived"] + killed[::3]
        for m in sample:
            text = apply_diff(source, m["diff"])
            assert text != source
            alone = pytest_alone(slug, text, tmp_path / m["id"])
            assert alone == m["outcome"], (slug, m["id"], m["description"], alone)
            sampled += 1
    assert sampled >= 10


def test_the_cap_the_table_and_the_shard_path(report, tmp_path):
    report_all = report
    lines = tmp_path / "run.jsonl"
    proc = check(*(PROBLEMS / slug for slug in SAMPLE[:2]), "--mutants=3", "--jsonl", lines)
    assert proc.returncode == 0, proc.stderr
    assert "mutants" in proc.stdout.splitlines()[0]  # the column
    merged = subprocess.run([str(fx.BIN), "report", str(lines), "--json"],
                            capture_output=True, text=True, timeout=60)
    report = json.loads(merged.stdout)
    assert [p["generated"] for p in report["mutants"]["problems"]] == [3, 3]
    full = {p["problem"]: {m["id"]: m for m in p["mutants"]} for p in report_all["pairs"]}
    for pair in report["pairs"]:
        assert len(pair["mutants"]) == 3
        for m in pair["mutants"]:  # the same ids for the same mutants, capped or not
            assert full[pair["problem"]][m["id"]]["diff"] == m["diff"]
    table = subprocess.run([str(fx.BIN), "report", str(lines)], capture_output=True, text=True,
                           timeout=60).stdout
    assert "mutants:" in table and "generated" in table


def test_survivors_are_listed_with_their_diffs():
    proc = check(PROBLEMS / "coin_change", "--mutants")
    assert proc.returncode == 0, proc.stderr
    assert "survived (may be equivalent)" in proc.stdout
    assert "\n      @@ line" in proc.stdout
    assert "\n      -" in proc.stdout and "\n      +" in proc.stdout


def test_without_mutants_nothing_changes():
    proc = check(PROBLEMS / "coin_change", "--json")
    report = json.loads(proc.stdout)
    assert "mutants" not in report
    assert all("mutants" not in p for p in report["pairs"])
    table = check(PROBLEMS / "coin_change").stdout
    assert "mutants" not in table
