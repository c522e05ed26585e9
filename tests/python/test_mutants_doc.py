"""docs/mutants.md cannot drift silently: its survivors and scores still match the solutions and the generator.
Nor can www/mutants.json, the scores the page's bench audit shows (scripts/mutants_data.py writes it
from the same run): its figures are the table's, its survivors the page's sections, its digests the
bench's files, and the sample problem's entry is what the script makes of the CLI's output here.

Cheap on purpose (a few seconds): the page itself is checked for every problem without running anything
(each documented diff's old lines are still the solution's lines there, the mutated source parses, the
table adds up), and `bench-explorer check --mutants` runs on ONE small problem only (SAMPLE), where
every documented mutant must still exist with the same id, operator and diff, still survive, and the
score must be the table's. The whole bench's run (docs/mutants.md, "Reproduce") takes over a minute.

Run: python3 -m pytest tests/python/test_mutants_doc.py -q (after `cargo build --bin bench-explorer`).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys

import pytest

import faithful as fx

DOC = fx.ROOT / "docs" / "mutants.md"
DATA = fx.ROOT / "www" / "mutants.json"
PROBLEMS = fx.ROOT / "problems"
# 13 mutants, 2 survivors (one equivalent, one lacking), none that loops forever: about 2 s.
SAMPLE = "lru_cache"

SECTION = re.compile(
    r"^### (?P<problem>\w+) (?P<id>m\d{3})\n\n"
    r"Operator `(?P<operator>[a-z-]+)`, (?P<description>line \d+: [^\n]*)\.\n\n"
    r"```diff\n(?P<diff>.*?)```\n\n"
    r"\*\*(?P<verdict>Equivalent|A check the bench lacks)\.\*\*",
    re.M | re.S,
)
ROW = re.compile(r"^\| (\w+) \| (\d+)/(\d+) \| \d+% \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", re.M)
TOTAL = re.compile(r"^\| \*\*bench\*\* \| \*\*(\d+)/(\d+)\*\* \|.*?\| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \| \*\*(\d+)\*\* \|", re.M)


def mutants_data():
    spec = importlib.util.spec_from_file_location("mutants_data", fx.ROOT / "scripts" / "mutants_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def sections() -> list[dict]:
    return [m.groupdict() for m in SECTION.finditer(DOC.read_text())]


def table() -> dict[str, dict]:
    return {
        m[1]: {"killed": int(m[2]), "generated": int(m[3]), "survived": int(m[4]),
               "equivalent": int(m[5]), "lacking": int(m[6]), "timeouts": int(m[7])}
        for m in ROW.finditer(DOC.read_text())
    }


def apply(source: str, diff: str) -> str:
    """The mutated source from a `@@ line N @@` diff: its `-` lines must still be the source's lines at N."""
    head, *body = diff.rstrip("\n").split("\n")
    line = int(re.fullmatch(r"@@ line (\d+) @@", head)[1])
    old = [l[1:] for l in body if l.startswith("-")]
    new = [l[1:] for l in body if l.startswith("+")]
    lines = source.split("\n")
    assert lines[line - 1:line - 1 + len(old)] == old, f"the solution changed at line {line}"
    lines[line - 1:line - 1 + len(old)] = new
    return "\n".join(lines)


def test_every_problem_has_a_row_and_the_table_adds_up():
    rows = table()
    assert sorted(rows) == sorted(p.name for p in fx.PROBLEMS)
    docs = sections()
    for problem, row in rows.items():
        mine = [s for s in docs if s["problem"] == problem]
        assert row["survived"] == row["generated"] - row["killed"] == len(mine), problem
        assert row["equivalent"] == sum(s["verdict"] == "Equivalent" for s in mine), problem
        assert row["lacking"] == sum(s["verdict"] != "Equivalent" for s in mine), problem
    total = TOTAL.search(DOC.read_text())
    assert total, "no bench totals row"
    killed, generated, survived, equivalent, lacking = map(int, total.groups())
    assert killed == sum(r["killed"] for r in rows.values())
    assert generated == sum(r["generated"] for r in rows.values())
    assert survived == len(docs) == equivalent + lacking
    assert equivalent == sum(r["equivalent"] for r in rows.values())


@pytest.mark.parametrize("section", sections(), ids=lambda s: f'{s["problem"]}-{s["id"]}')
def test_every_documented_diff_still_applies_to_its_solution(section):
    source = (PROBLEMS / section["problem"] / "solution.py").read_text()
    mutated = apply(source, section["diff"])
    assert mutated != source
    ast.parse(mutated)
    line = int(re.match(r"line (\d+):", section["description"])[1])
    assert section["diff"].startswith(f"@@ line {line} @@\n-")


@pytest.fixture(scope="module")
def sample_report() -> dict:
    """`check --mutants --json` on the sample problem: the one run both checks below read."""
    proc = subprocess.run(
        [str(fx.BIN), "check", "--python", sys.executable, str(PROBLEMS / SAMPLE), "--mutants", "--json",
         "--jobs", "1"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_generator_still_makes_the_documented_survivors_of_one_problem(sample_report):
    documented = {s["id"]: s for s in sections() if s["problem"] == SAMPLE}
    assert documented, f"docs/mutants.md lists no survivor of {SAMPLE}"
    report = sample_report
    (pair,) = report["pairs"]
    runs = {m["id"]: m for m in pair["mutants"]}
    for mid, doc in documented.items():
        assert mid in runs, f"{SAMPLE} {mid} is no longer generated"
        run = runs[mid]
        assert run["diff"] == doc["diff"], f"{SAMPLE} {mid}: another diff"
        assert run["operator"] == doc["operator"]
        assert run["description"] == doc["description"]
        assert run["outcome"] == "survived", f"{SAMPLE} {mid} is now {run['outcome']}: update docs/mutants.md"
    assert {m for m, r in runs.items() if r["outcome"] == "survived"} == set(documented)
    row = table()[SAMPLE]
    (score,) = report["mutants"]["problems"]
    assert (score["killed"], score["generated"]) == (row["killed"], row["generated"])


def test_the_pages_scores_are_the_tables_and_of_the_benchs_files():
    data = json.loads(DATA.read_text())
    tool = mutants_data()
    assert data["command"] == tool.COMMAND
    rows = table()
    docs = sections()
    assert [p["problem"] for p in data["problems"]] == sorted(rows)
    for p in data["problems"]:
        slug = p["problem"]
        row = rows[slug]
        for k in ("killed", "generated", "survived", "timeouts"):
            assert p[k] == row[k], f"www/mutants.json {slug} {k}: {p[k]}, docs/mutants.md {row[k]}"
        assert p["survivors"] == sorted(s["id"] for s in docs if s["problem"] == slug), slug
        assert p["digest"] == tool.problem_digest(slug), (
            f"{slug} changed since www/mutants.json was measured: run scripts/mutants_data.py")


def test_the_pages_scores_are_what_the_script_makes_of_the_clis_run(sample_report):
    data = json.loads(DATA.read_text())
    (committed,) = [p for p in data["problems"] if p["problem"] == SAMPLE]
    assert mutants_data().problem_entry(sample_report, SAMPLE) == committed
