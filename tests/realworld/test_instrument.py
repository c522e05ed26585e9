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


RIGGED = '''
COUNT = 0

def bump():
    global COUNT
    COUNT += 1
    return COUNT

def result():
    return []

def sorted(*args, **kwargs):
    return [1, 2, 3]

__builtins__ = {}
'''

RIGGED_TESTS = '''
import rigged as pkg
from rigged import result, helpers, bump, COUNT
'''


def test_version_2_bindings_on_a_made_package(tmp_path: pathlib.Path):
    """rw_eval builds runner.build_namespace's namespace from the extraction's bindings: the package's own
    `sorted` and `__builtins__` do not reach an expression, `from pkg import sub` imports the submodule, an attr is
    a snapshot and a module binding is live; without bindings (version 1), the package's globals."""
    (tmp_path / "rigged").mkdir()
    (tmp_path / "rigged" / "__init__.py").write_text(RIGGED)
    (tmp_path / "rigged" / "helpers.py").write_text("VALUE = 7\n")
    test_file = tmp_path / "test_rigged.py"
    test_file.write_text(RIGGED_TESTS)
    python = pathlib.Path(sys.executable)
    bindings = [
        {"kind": "module", "name": "pkg", "module": "rigged"},
        {"kind": "attr", "name": "result", "module": "rigged", "attr": "result"},
        {"kind": "attr", "name": "helpers", "module": "rigged", "attr": "helpers"},
        {"kind": "attr", "name": "bump", "module": "rigged", "attr": "bump"},
        {"kind": "attr", "name": "COUNT", "module": "rigged", "attr": "COUNT"},
    ]
    items = [
        (0, "sorted(result()) == [1, 2, 3]"),
        (1, "helpers.VALUE == 7 and len('ab') == 2"),
        (2, "bump() == 1 and COUNT == 0 and pkg.COUNT == 1"),
    ]
    v2 = corpus.run_eval(python, tmp_path, test_file, "rigged", items, bindings)
    assert [v2[i]["truthy"] for i, _ in items] == [False, True, True], v2
    v1 = corpus.run_eval(python, tmp_path, test_file, "rigged", items[:1])
    assert v1[0]["truthy"] is True  # the phantom pass version 2 removes
    missing = corpus.run_eval(python, tmp_path, test_file, "rigged", items,
                              bindings + [{"kind": "attr", "name": "gone", "module": "rigged", "attr": "gone"}])
    assert all(not v["truthy"] and "ImportError: cannot import name 'gone' from 'rigged'" in v["error"]
               for v in missing.values()), missing


def test_the_test_module_is_registered_for_each_item_in_both_modes(tmp_path: pathlib.Path, monkeypatch):
    """With a `__name__` binding, build_namespace registers the test module while an item runs: code that looks
    its caller's module up by name finds that item's namespace, with and without forking."""
    (tmp_path / "finder").mkdir()
    (tmp_path / "finder" / "__init__.py").write_text(
        "import sys\n\n"
        "def caller_registered():\n"
        "    caller = sys._getframe(1).f_globals\n"
        "    return getattr(sys.modules.get(caller.get('__name__')), '__dict__', None) is caller\n"
    )
    test_file = tmp_path / "test_finder.py"
    test_file.write_text("from finder import caller_registered\n")
    bindings = [
        {"kind": "value", "name": "__name__", "value": "test_finder"},
        {"kind": "attr", "name": "caller_registered", "module": "finder", "attr": "caller_registered"},
    ]
    items = [(0, "caller_registered()"), (1, "caller_registered()")]
    for fork in (True, False):
        monkeypatch.setattr(corpus, "FORK", fork)
        got = corpus.run_eval(pathlib.Path(sys.executable), tmp_path, test_file, "finder", items, bindings)
        assert [got[i]["truthy"] for i, _ in items] == [True, True], (fork, got)
