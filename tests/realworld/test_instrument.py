"""The measuring instrument itself, on a tiny package made here (no network, no extractor): pytest's record, the
contract-namespace evaluation and the verdicts must see a false fail, a phantom pass and an unmatched id where
they are, and nothing where there is none."""

from __future__ import annotations

import pathlib
import sys
import textwrap

import corpus

PACKAGE = '''
_count = 0
def next_id():
    global _count
    _count += 1
    return _count
'''

TESTS = '''
import pytest
from counter import next_id

def test_counts():
    first = next_id()
    second = next_id()
    assert second == 2

@pytest.mark.skip(reason="not today")
def test_skipped():
    assert next_id() == 1

def test_fails():
    assert next_id() == 99

def test_branch():
    if next_id() > 5:
        assert next_id() == 7
'''


def test_verdicts_on_a_made_package(tmp_path: pathlib.Path):
    (tmp_path / "counter").mkdir()
    (tmp_path / "counter" / "__init__.py").write_text(PACKAGE)
    test_file = tmp_path / "test_counter.py"
    test_file.write_text(textwrap.dedent(TESTS))
    python = pathlib.Path(sys.executable)
    pyt = corpus.split_by_file(corpus.run_pytest(python, tmp_path, [test_file], [], 120), [test_file])[test_file]
    outcomes = {nid.split("::")[1]: rec["outcome"] for nid, rec in pyt["tests"].items()}
    assert outcomes == {"test_counts": "passed", "test_skipped": "skipped", "test_fails": "failed",
                        "test_branch": "passed"}

    # A hand-written extraction: the "query" reading of test_counts (a false fail) and its faithful replay; a
    # truthy kept assert of a skipped test (phantom); the assert pytest failed, kept false (faithful) and kept
    # negated, so truthy (phantom); a truthy assert pytest never ran (phantom); an id pytest never collected.
    ext = {"assertions": [
        {"test": "test_counts", "line": 8, "status": "kept", "expr": "next_id() == 2"},
        {"test": "test_counts", "line": 8, "status": "kept", "expr": "(next_id(), next_id() == 2)[-1]"},
        {"test": "test_skipped", "line": 12, "status": "kept", "expr": "next_id() == 1"},
        {"test": "test_fails", "line": 15, "status": "kept", "expr": "next_id() == 99"},
        {"test": "test_fails", "line": 15, "status": "kept", "expr": "next_id() != 99"},
        {"test": "test_branch", "line": 19, "status": "kept", "expr": "True"},
        {"test": "test_counts[0]", "line": 8, "status": "dropped", "reason": "`x` is changed"},
    ]}
    orig_extract = corpus.run_extract
    corpus.run_extract = lambda path, module: ext
    try:
        result = corpus.check_file(python, {"import": "counter", "name": "counter"}, tmp_path, test_file, pyt)
    finally:
        corpus.run_extract = orig_extract
    verdicts = [e["verdict"] for e in result.entries]
    assert verdicts == ["false-fail", "ok", "phantom-pass", "faithful-in-failing-test", "phantom-pass",
                        "phantom-pass", "unmatched"]
    rows = corpus.summarize([result], ["counter"])
    assert rows["counter"]["false_fails"] == 1
    assert rows["counter"]["phantom_passes"] == 3
    assert rows["counter"]["unmatched_ids"] == 1
