"""A pytest plugin (loaded with `-p rw_plugin`) that records, for each test file, what pytest really did.

Written to the JSON file named by $RW_PLUGIN_OUT at the end of the session:

- `collected`: every node id pytest collected (before `-m`/`-k` deselection), as `--collect-only -q` lists them,
  with the real path of its file;
- `collect_errors`: per file path, the error that stopped pytest collecting it;
- `deselected`: the node ids deselected by the package's own options;
- `tests`: per node id, the outcome (`passed`, `failed`, `skipped`, `xfailed`, `xpassed`, `error`), the line of
  the test file where a failing call stopped (`fail_line`), and the lines of the test file that ran during the
  call phase (`lines`), so that an assert never executed is not counted as one pytest passed.

Line tracing uses `sys.settrace` and only traces frames whose code lives in the test file.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

_STATE: dict = {"collected": [], "deselected": [], "tests": {}, "collect_errors": {}}


def _record(nodeid: str) -> dict:
    return _STATE["tests"].setdefault(nodeid, {"outcome": None, "fail_line": None, "lines": []})


def pytest_itemcollected(item):
    _STATE["collected"].append([item.nodeid, os.path.realpath(str(item.path))])


def pytest_collectreport(report):
    if report.failed:
        path = getattr(report, "fspath", None) or report.nodeid
        _STATE["collect_errors"][os.path.realpath(str(path))] = str(report.longrepr)[-1500:]


def pytest_deselected(items):
    _STATE["deselected"].extend(i.nodeid for i in items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    target = os.path.realpath(str(item.path))
    lines: set[int] = set()

    def local(frame, event, arg):
        if event == "line":
            lines.add(frame.f_lineno)
        return local

    # realpath per call is slow: cache it per code filename
    cache: dict[str, bool] = {}

    def fast_tracer(frame, event, arg):
        name = frame.f_code.co_filename
        hit = cache.get(name)
        if hit is None:
            hit = cache[name] = os.path.realpath(name) == target
        if hit:
            lines.add(frame.f_lineno)
            return local
        return None

    previous = sys.gettrace()
    sys.settrace(fast_tracer)
    try:
        return (yield)
    finally:
        sys.settrace(previous)
        _record(item.nodeid)["lines"] = sorted(lines)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if call.when == "call" and call.excinfo is not None:
        target = os.path.realpath(str(item.path))
        line = None
        for entry in call.excinfo.traceback:
            if os.path.realpath(str(entry.path)) == target:
                line = entry.lineno + 1
        _record(item.nodeid)["fail_line"] = line
    return report


def pytest_runtest_logreport(report):
    rec = _record(report.nodeid)
    xfail = hasattr(report, "wasxfail")
    if report.when == "setup":
        if report.failed:
            rec["outcome"] = "error"
        elif report.skipped:
            rec["outcome"] = "xfailed" if xfail else "skipped"
    elif report.when == "call":
        if report.passed:
            rec["outcome"] = "xpassed" if xfail else "passed"
        elif report.failed:
            rec["outcome"] = "failed"
        elif report.skipped:
            rec["outcome"] = "xfailed" if xfail else "skipped"
    elif report.when == "teardown" and report.failed:
        rec["outcome"] = "error"


def pytest_sessionfinish(session):
    out = os.environ.get("RW_PLUGIN_OUT")
    if out:
        with open(out, "w") as fh:
            json.dump(_STATE, fh)
