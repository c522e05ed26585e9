"""Checks on every benchmark problem in problems/.

Run with `python3 -m pytest tests/bench`. Problem folders are discovered when
the tests are collected, so a new folder is checked without editing this file.
"""

import ast
import sys

import pytest

import benchlib as bl

SLUGS = bl.problem_slugs()
REQUIRED_FILES = ("problem.md", "stub.py", "solution.py", "meta.toml")

# The twelve problems the write-up's bench is known to contain, by slug.
KNOWN_SLUGS = (
    "word_ladder", "lru_cache", "lru_cache_ttl", "dijkstra_shortest_path",
    "damerau_levenshtein", "bfs_shortest_path", "kadane_max_subarray",
    "subarray_sum_k", "two_sum_pairs", "wildcard_match", "count_inversions",
    "clean_phone",
)

MIN_ASSERTS, MAX_ASSERTS = 5, 16
# The write-up's extractor checked 148 assertions of its bench after the six-shape fix; pytest runs
# at least those, and more (parametrized cases and stateful tests that extractor dropped).
MIN_TOTAL, MAX_TOTAL = 148, 200

per_problem = pytest.mark.parametrize("slug", SLUGS)


def _meta(slug):
    return bl.load_meta(slug)


def _source(slug, name):
    return bl.read(bl.problem_dir(slug) / name)


def _tests(slug):
    return bl.read(bl.tests_path(slug))


_AUDIT = None


def _audit():
    """The extractor's audit of the bench, by slug (built once; needs the CLI built)."""
    global _AUDIT
    if _AUDIT is None:
        import json
        import os
        import subprocess

        binary = os.environ.get("BENCH_EXPLORER_BIN", str(bl.ROOT / "target" / "debug" / "bench-explorer"))
        proc = subprocess.run([binary, "audit", "--json", str(bl.ROOT / "problems")], capture_output=True, text=True, timeout=120)
        assert proc.returncode in (0, 1), proc.stderr
        _AUDIT = {p["slug"]: p for p in json.loads(proc.stdout)["problems"]}
    return _AUDIT


# --------------------------------------------------------------------------- the bench as a whole


def test_bench_has_the_21_problems():
    assert len(SLUGS) == 21, SLUGS
    assert set(KNOWN_SLUGS) <= set(SLUGS), set(KNOWN_SLUGS) - set(SLUGS)


def test_bench_total_of_kept_asserts():
    total = sum(bl.kept_assert_count(_tests(s), bl.run_with(s, "solution.py")) for s in SLUGS)
    assert MIN_TOTAL <= total <= MAX_TOTAL, total


def test_exactly_one_problem_has_skipped_or_xfailed_cases():
    with_skips = [s for s in SLUGS if bl.run_with(s, "solution.py").with_outcome("skipped")]
    assert len(with_skips) == 1, with_skips


def test_every_shape_occurs_somewhere():
    seen = set()
    for slug in SLUGS:
        seen.update(_meta(slug)["shapes"])
    assert seen == set(bl.SHAPE_IDS), set(bl.SHAPE_IDS) - seen


def test_bench_covers_the_usual_test_styles():
    """Classes, parametrize (also stacked), fixtures and module constants all appear."""
    counts = {"class": 0, "parametrize": 0, "stacked": 0, "fixture": 0, "constant": 0, "raises": 0}
    for slug in SLUGS:
        tree = ast.parse(_tests(slug))
        if any(isinstance(n, ast.ClassDef) and n.name.startswith("Test") for n in tree.body):
            counts["class"] += 1
        stacks = [
            sum(bl.is_parametrize(d) for d in f.decorators) for f in bl.pytest_functions(tree)
        ]
        counts["parametrize"] += any(stacks)
        counts["stacked"] += any(n >= 2 for n in stacks)
        counts["fixture"] += any(
            isinstance(n, ast.FunctionDef)
            and any("fixture" in ast.unparse(d) for d in n.decorator_list)
            for n in tree.body
        )
        counts["constant"] += any(
            isinstance(n, ast.Assign)
            and all(isinstance(t, ast.Name) and t.id.isupper() for t in n.targets)
            for n in tree.body
        )
        counts["raises"] += "pytest.raises" in _tests(slug)
    assert counts["class"] >= 2, counts
    assert counts["parametrize"] >= 2, counts
    assert counts["stacked"] >= 1, counts
    assert counts["fixture"] >= 1, counts
    assert counts["constant"] >= 1, counts
    assert counts["raises"] >= 1, counts


def test_original_clean_phone_statement_hides_a_convention():
    """The first clean_phone statement fails the convention check, on purpose.

    It says to return the digits but never says to drop the country code 1,
    which the tests rely on; the fixed problem.md states it.
    """
    # The extractor's convention check, as `bench-explorer audit --json` reports it.
    meta = _meta("clean_phone")
    problem = _audit()["clean_phone"]
    assert problem["original_hidden_conventions"] == ["Strip a leading country code 1"]
    assert problem["hidden_conventions"] == []
    assert "hidden-spec-rule" in meta["shapes"]


# --------------------------------------------------------------------------- each problem


@per_problem
def test_folder_has_its_files(slug):
    folder = bl.problem_dir(slug)
    missing = [f for f in REQUIRED_FILES if not (folder / f).is_file()]
    assert missing == [] and bl.tests_path(slug).is_file(), (missing, bl.tests_path(slug))


@per_problem
def test_reference_solution_passes(slug):
    run = bl.run_with(slug, "solution.py")
    assert run.returncode == 0, run.output
    assert run.with_outcome("passed"), run.output
    assert run.with_outcome("failed") == run.with_outcome("error") == [], run.output


@per_problem
def test_stub_fails_every_test(slug):
    stub = bl.run_with(slug, "stub.py")
    reference = bl.run_with(slug, "solution.py")
    assert stub.returncode == 1, stub.output  # 1: tests ran and some failed
    assert [node for node, _, _ in stub.outcomes] == [node for node, _, _ in reference.outcomes]
    assert stub.with_outcome("passed") == [], stub.output
    wrong_reason = [
        (node, message) for node, outcome, message in stub.outcomes
        if outcome in ("failed", "error") and "NotImplementedError" not in message
    ]
    assert wrong_reason == [], wrong_reason


@per_problem
def test_kept_assert_count_is_in_range(slug):
    count = bl.kept_assert_count(_tests(slug), bl.run_with(slug, "solution.py"))
    assert MIN_ASSERTS <= count <= MAX_ASSERTS, count


@per_problem
def test_meta_is_well_formed(slug):
    assert bl.meta_problems(_meta(slug)) == []


@per_problem
def test_functions_are_defined_in_solution_and_stub(slug):
    functions = set(_meta(slug)["functions"])
    assert functions <= bl.top_level_names(_source(slug, "solution.py"))
    assert functions <= bl.top_level_names(_source(slug, "stub.py"))


@per_problem
def test_functions_are_exactly_what_the_tests_call(slug):
    assert set(_meta(slug)["functions"]) == bl.solution_names_called(_tests(slug))


@per_problem
def test_stub_has_the_solution_signatures(slug):
    solution = bl.public_signatures(_source(slug, "solution.py"))
    stub = bl.public_signatures(_source(slug, "stub.py"))
    assert stub == solution


@per_problem
def test_stub_bodies_only_raise_not_implemented(slug):
    assert bl.stub_defects(_source(slug, "stub.py")) == []


@per_problem
def test_conventions_are_stated_in_problem_md(slug):
    # The extractor's convention check (`bench-explorer audit --json`), not a Python copy of it.
    assert _meta(slug).get("conventions"), "meta.toml states no convention"
    assert _audit()[slug]["hidden_conventions"] == []


@per_problem
def test_conventions_are_bullets_of_the_conventions_section(slug):
    assert bl.conventions_not_in_bullets(_meta(slug), _source(slug, "problem.md")) == []


@per_problem
def test_problem_md_mentions_every_function(slug):
    statement = _source(slug, "problem.md")
    missing = [f for f in _meta(slug)["functions"] if not bl.mentions(statement, f)]
    assert missing == []


@per_problem
def test_problem_md_has_its_sections(slug):
    statement = _source(slug, "problem.md")
    assert statement.startswith("# ")
    for heading in ("Signature", "Examples", "Conventions"):
        assert bl.markdown_section(statement, heading) is not None, heading


@per_problem
def test_problem_md_examples_hold_for_the_solution(slug):
    tried, failed, report = bl.example_failures(
        _source(slug, "problem.md"), _source(slug, "solution.py")
    )
    assert tried >= 2 and failed == 0, report


@per_problem
def test_meta_shapes_are_the_shapes_the_extractor_classifies(slug):
    # The extractor is the one classifier: `bench-explorer audit --json` compares each problem's
    # meta.toml with what it sees in the test file (and, for hidden-spec-rule, in the statements).
    problem = _audit()[slug]
    assert problem["shapes_not_seen"] == [], f"meta.toml lists shapes the extractor does not see: {problem}"
    assert problem["shapes_not_listed"] == [], f"the extractor sees shapes meta.toml does not list: {problem}"
    assert sorted(_meta(slug)["shapes"]) == sorted(problem["shapes"])


@per_problem
def test_every_assert_reaches_the_solution(slug):
    assert bl.asserts_not_touching_solution(_tests(slug)) == []


@per_problem
def test_test_file_uses_the_bench_loader(slug):
    source = _tests(slug)
    assert bl.loader_source(source) == bl.LOADER_SOURCE
    tree = ast.parse(source)
    imports = [ast.unparse(n) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert "import importlib.util" in imports
    assert "from pathlib import Path" in imports


@per_problem
def test_solution_uses_only_the_standard_library(slug):
    modules = bl.imported_modules(_source(slug, "solution.py"))
    assert modules <= set(sys.stdlib_module_names), modules
    assert not modules & {"time", "datetime", "random", "secrets", "os"}, modules


@per_problem
def test_tests_do_not_read_a_clock_or_unseeded_randomness(slug):
    source = _tests(slug)
    assert not bl.imported_modules(source) & {"time", "datetime", "secrets", "uuid"}
    for test in bl.pytest_functions(ast.parse(source)):
        ordered = sorted(
            (n.lineno, n.col_offset, n.func.attr)
            for n in ast.walk(test.node)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name)
            and n.func.value.id == "random"
        )
        if ordered:
            assert ordered[0][2] == "seed", (test.qualname, ordered)
