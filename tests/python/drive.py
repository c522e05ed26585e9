"""One side of the differential check, in its own process, printing JSON on stdout.

    python3 tests/python/drive.py pytest RUN_DIR TEST_FILE_NAME
    python3 tests/python/drive.py eval SOLUTION_FILE EVAL_JSON [TIMEOUT_SECONDS]

`pytest` runs real pytest on RUN_DIR/TEST_FILE_NAME (RUN_DIR is a copy of the fixture folder, so its
conftest.py is honoured) and reports, per node id, the outcome of each phase and, for a failing call,
the line of the test function's own frame where it failed (the assert pytest failed, or the statement
that raised before any later assert was reached).

`eval` evaluates each expression of EVAL_JSON (`{"exprs": [str], "bindings": [binding] | null}`, the
extraction's kept expressions and bindings; a bare JSON list of strings is `{"exprs": list, "bindings":
null}`) the way the extraction contract says a bench loop does: for every expression a FRESH module is
loaded from SOLUTION_FILE with importlib.util.spec_from_file_location / module_from_spec / exec_module
(so `__name__`, `__file__`, `__spec__` are set), registered in sys.modules under its name while the
expression is evaluated, and `eval(expr, namespace)` is taken with its truth value, under a
per-expression timeout. The namespace is the page's and `check`'s own: `build_namespace(module,
bindings)` of www/py/runner.py (loaded from there by path), i.e. contract version 2's fresh namespace
with the real builtins and the bindings applied in order; without bindings (version 1), the module's
own `__dict__`.
"""

from __future__ import annotations

import importlib.util
import inspect
import io
import json
import os
import select
import signal
import sys
import time
from pathlib import Path

RUNNER_PY = Path(__file__).resolve().parents[2] / "www" / "py" / "runner.py"


def _load_runner():
    """www/py/runner.py, by path (under a name of its own, so that nothing can import it by name)."""
    spec = importlib.util.spec_from_file_location("_bench_explorer_runner", RUNNER_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = _load_runner()

class _Timeout(BaseException):
    pass


def _on_alarm(signum, frame):
    raise _Timeout()


def _short(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) <= 300 else text[:300] + "..."


def _evaluate_here(solution_file: str, name: str, expr: str, bindings: list | None, timeout: float,
                   file_filters: list = (), own_filters: list = (), logging_spec: dict | None = None) -> dict:
    """One evaluation, in the current (forked) process: runner.py's `evaluate_check`."""
    sys.stdout = sys.stderr = io.StringIO()
    sys.stdin = io.StringIO("")

    def load():
        spec = importlib.util.spec_from_file_location(name, solution_file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        return module

    signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        checked = runner.evaluate_check(load, expr, bindings, file_filters=file_filters, own_filters=own_filters,
                                        logging_spec=logging_spec)
        outcome, phase = checked.outcome, checked.phase
        error = None if checked.error is None else _short(checked.error)
        if isinstance(checked.error, _Timeout):
            outcome, error = "timeout", f"timed out after {timeout}s"
    except _Timeout:
        outcome, error, phase = "timeout", f"timed out after {timeout}s", None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.modules.pop(name, None)
    return {"outcome": outcome, "error": error, "phase": phase}


def evaluate(solution_file: str, exprs: list[str], bindings: list | None, timeout: float,
             file_filters: list = (), own_filters: list | None = None,
             logging_spec: dict | None = None) -> list[dict]:
    """Each expression in a forked child of this process, so that nothing one evaluation changes
    (module attributes of the stdlib, os.environ, the decimal context, builtins) reaches the next."""
    name = os.path.splitext(os.path.basename(solution_file))[0]
    results = []
    own_filters = own_filters or [[] for _ in exprs]
    for expr, own in zip(exprs, own_filters):
        read_end, write_end = os.pipe()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:  # the child
            os.close(read_end)
            try:
                data = json.dumps(_evaluate_here(solution_file, name, expr, bindings, timeout,
                                                 file_filters, own, logging_spec)).encode()
            except BaseException as exc:  # noqa: BLE001 - e.g. a result that cannot be encoded
                data = json.dumps({"outcome": "error", "error": _short(exc), "phase": "assertion"}).encode()
            with os.fdopen(write_end, "wb") as f:
                f.write(data)
            os._exit(0)
        os.close(write_end)
        chunks = []
        deadline = time.monotonic() + timeout + 5
        with os.fdopen(read_end, "rb") as f:
            while True:
                left = deadline - time.monotonic()
                ready, _, _ = select.select([f], [], [], max(0.0, left))
                if not ready:
                    os.kill(pid, signal.SIGKILL)
                    break
                chunk = os.read(f.fileno(), 65536)
                if not chunk:
                    break
                chunks.append(chunk)
        os.waitpid(pid, 0)
        try:
            results.append(json.loads(b"".join(chunks)))
        except ValueError:
            results.append({"outcome": "timeout" if time.monotonic() >= deadline else "error",
                            "error": "the evaluation process died or hung", "phase": None})
    return results


class Recorder:
    """pytest plugin: per node id, each phase's outcome and the failing line of a failed call."""

    def __init__(self, test_file: str):
        self.test_file = os.path.realpath(test_file)
        self.tests: dict[str, dict] = {}
        self.collection_errors: list[str] = []

    def _entry(self, nodeid: str) -> dict:
        return self.tests.setdefault(
            nodeid,
            {"nodeid": nodeid, "name": nodeid.split("::", 1)[-1], "setup": None, "call": None,
             "teardown": None, "fail_line": None, "fail_inner": None, "crash": "", "wasxfail": False, "deselected": False},
        )

    def _fail_line(self, item, excinfo):
        """Line, in the test function's own frame, that was executing when the call failed."""
        try:
            target = inspect.unwrap(item.function).__code__
        except Exception:  # noqa: BLE001
            target = None
        in_file = []
        for entry in excinfo.traceback:
            frame_code = entry.frame.code.raw
            if os.path.realpath(str(entry.path)) != self.test_file:
                continue
            if target is not None and frame_code is target:
                return entry.lineno + 1
            in_file.append(entry)
        return in_file[0].lineno + 1 if in_file else None

    def _fail_inner(self, item, excinfo):
        """Line, in the frame the test function called next in this file (a helper such as
        `check(candidate)`), that was executing when the call failed; None if there is none."""
        try:
            target = inspect.unwrap(item.function).__code__
        except Exception:  # noqa: BLE001
            return None
        seen = False
        for entry in excinfo.traceback:
            if os.path.realpath(str(entry.path)) != self.test_file:
                continue
            if seen:
                return entry.lineno + 1
            seen = entry.frame.code.raw is target
        return None

    def _makereport(self, item, call):  # installed as a hookwrapper by run_pytest
        outcome = yield
        report = outcome.get_result()
        entry = self._entry(report.nodeid)
        # A failed subtest (reported before this) already named where the test failed.
        if report.when == "call" and call.excinfo is not None and report.failed and entry["call"] != "failed":
            entry["fail_line"] = self._fail_line(item, call.excinfo)
            entry["fail_inner"] = self._fail_inner(item, call.excinfo)
            crash = getattr(getattr(report.longrepr, "reprcrash", None), "message", "")
            entry["crash"] = (crash or "")[:300]

    def _subtest_line(self, report):
        """The line, in this file, where a failed subtest's traceback first enters it."""
        tb = getattr(report.longrepr, "reprtraceback", None)
        for entry in getattr(tb, "reprentries", ()) or ():
            loc = getattr(entry, "reprfileloc", None)
            if loc is not None and os.path.realpath(str(loc.path)) == self.test_file:
                return loc.lineno
        return None

    def pytest_runtest_logreport(self, report):
        entry = self._entry(report.nodeid)
        if report.passed:
            state = "passed"
        elif report.failed:
            state = "failed"
        else:
            state = "skipped"
        if hasattr(report, "wasxfail"):
            entry["wasxfail"] = True
        # pytest 9's subtests (`subtests.test()`, unittest's `subTest`) report each subtest under the
        # test's own node id before the test's call report: a failed subtest fails the test, whatever
        # the call's own outcome after it.
        if type(report).__name__ == "SubtestReport":
            if report.failed and entry["call"] != "failed":
                entry["call"] = "failed"
                entry["fail_line"] = self._subtest_line(report)
                crash = getattr(getattr(report.longrepr, "reprcrash", None), "message", "")
                entry["crash"] = (crash or "")[:300]
            return
        if report.when == "call" and entry["call"] == "failed":
            return
        entry[report.when] = state
        if report.failed and report.when != "call" and not entry["crash"]:
            crash = getattr(getattr(report.longrepr, "reprcrash", None), "message", "")
            entry["crash"] = (crash or "")[:300]

    def pytest_deselected(self, items):
        """Tests `-m`/`-k` (from the configuration's addopts) took out: collected, never run."""
        for item in items:
            self._entry(item.nodeid)["deselected"] = True

    def pytest_collectreport(self, report):
        if report.failed:
            self.collection_errors.append(str(report.longrepr)[:500])


def outcome_of(entry: dict) -> str:
    """One word per test, as pytest's summary line counts it."""
    if entry["deselected"]:
        return "deselected"
    if entry["setup"] == "failed":
        return "error"
    if entry["setup"] == "skipped" or entry["call"] == "skipped":
        return "xfailed" if entry["wasxfail"] else "skipped"
    if entry["call"] == "failed":
        return "failed"
    if entry["call"] == "passed":
        return "xpassed" if entry["wasxfail"] else "passed"
    return "error"


def _config_file(run_dir: str) -> str:
    """The configuration file pytest takes in ``run_dir``, by pytest's own reading of each
    candidate (``_pytest.config.findpaths``: a ``pytest.ini`` always, a ``tox.ini`` only with a
    ``[pytest]`` section, a ``pyproject.toml`` only with a pytest table, ...). A file pytest refuses
    is taken, so that pytest refuses it as it would; with none, a ``pyproject.toml`` (pytest's
    fallback), else an empty file beside the folder, which stops pytest's search above it
    (faithful.py writes an empty pytest.ini into a folder that has none)."""
    from pathlib import Path

    from _pytest.config.findpaths import load_config_dict_from_file

    names = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg")
    for name in names:
        path = Path(run_dir) / name
        if not path.is_file():
            continue
        try:
            if load_config_dict_from_file(path) is not None:
                return str(path)
        except BaseException:  # noqa: BLE001
            return str(path)
    if (Path(run_dir) / "pyproject.toml").is_file():
        return os.path.join(run_dir, "pyproject.toml")
    empty = os.path.join(os.path.dirname(run_dir), "pytest.ini")
    with open(empty, "w") as f:
        f.write("[pytest]\n")
    return empty


def run_pytest(run_dir: str, test_name: str) -> dict:
    import pytest  # only here: the evaluations never import pytest

    Recorder.pytest_runtest_makereport = pytest.hookimpl(hookwrapper=True)(Recorder._makereport)
    os.chdir(run_dir)
    sys.path.insert(0, run_dir)
    sys.dont_write_bytecode = True
    recorder = Recorder(os.path.join(run_dir, test_name))
    args = [test_name, "-q", "-p", "no:cacheprovider", "--rootdir", run_dir, "-c", _config_file(run_dir),
            "--color=no"]
    if importlib.util.find_spec("pytest_randomly") is not None:
        args += ["-p", "no:randomly"]
    saved = sys.stdout
    sys.stdout = io.StringIO()
    try:
        exit_code = pytest.main(args, plugins=[recorder])
    except BaseException as exc:  # noqa: BLE001
        # pytest refused to start (a configuration it rejects with `pytest.fail`, an `addopts` it
        # cannot split): it ran no test, which is what is recorded.
        recorder.tests.clear()
        recorder.collection_errors.append(f"pytest refused to start: {_short(exc)}")
        exit_code = 4
    finally:
        output, sys.stdout = sys.stdout.getvalue(), saved
    tests = []
    for entry in recorder.tests.values():
        entry["outcome"] = outcome_of(entry)
        tests.append(entry)
    return {"tests": tests, "collection_errors": recorder.collection_errors,
            "exit_code": int(exit_code), "output": output[-4000:]}


def main() -> None:
    mode = sys.argv[1]
    if mode == "pytest":
        result = run_pytest(os.path.realpath(sys.argv[2]), sys.argv[3])
    elif mode == "eval":
        with open(sys.argv[3]) as f:
            job = json.load(f)
        if isinstance(job, list):
            job = {"exprs": job, "bindings": None}
        timeout = float(sys.argv[4]) if len(sys.argv) > 4 else 5.0
        result = evaluate(os.path.realpath(sys.argv[2]), job["exprs"], job.get("bindings"), timeout,
                          job.get("warning_filters") or [], job.get("own_filters"), job.get("logging"))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    sys.stdout.write(json.dumps(result))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
