"""Evaluate kept assertions of one test file in the extraction contract's namespace (run in the corpus venv).

    python rw_eval.py JOB.json OUT.jsonl

JOB: {"package": import name, "warning_filters": the extraction's, "items": [[index, expr, own filters], ...], "sys_path": [folders to put first], "imports": [[module, name], ...],
"star": [module, ...], "modules": [submodules imported by `import M.sub`], "items": [[index, expr], ...],
"timeout": seconds, "fork": true, "bindings": the extraction's bindings or null, "runner": path of
www/py/runner.py}.

The package is imported afresh (it and its submodules dropped from `sys.modules` first) and what the test file's
imports of it import (its submodules) is imported too. The namespace is then www/py/runner.py's
`build_namespace` (the page's and `check`'s evaluator, loaded by path) with the extraction's `bindings` (contract
version 2: the real builtins, then each binding in order, the module a binding names imported by name), or,
for a version 1 extraction (`bindings` null), the package's globals plus each name the test file imports from it
or its submodules (under its own name). Then each item is evaluated, with its truth value, in a child forked from that state, so every assertion starts from a freshly
imported module and no assertion sees what another one did (with `"fork": false` in JOB, the package is imported
afresh in this process for each item instead: slower, same meaning). One JSON line per item is appended to OUT
(flushed), so that the caller can tell which item a crash or a hang happened on and resume after it.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import select
import signal
import sys
import time


class _Timeout(BaseException):
    pass


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _alarm(signum, frame):
    raise _Timeout()


def _fresh(package: str):
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[name]
    return importlib.import_module(package)


def _load_runner(path: str):
    """www/py/runner.py, by path (under a name of its own, so that nothing can import it by name)."""
    spec = importlib.util.spec_from_file_location("_bench_explorer_runner", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _bindings_namespace(job: dict, module) -> dict:
    """Contract version 2: runner.build_namespace, each binding's module imported by name (a `from pkg import
    sub` of a submodule is imported as the import statement would: build_namespace asks the package first)."""
    return _RUNNER.build_namespace(module, job["bindings"], resolve=importlib.import_module)


_RUNNER = None
_LOGGING = None  # the extraction's `logging` (runner.py's `solution_import_logging`, `pytest_logging`)


def _namespace(job: dict) -> dict:
    # The package's first import as pytest makes it (runner.py's `evaluate_check`): in the collection, or before the
    # session where a conftest imports it; what the test file imports then runs in the collection.
    with _RUNNER.solution_import_logging(_LOGGING) if _RUNNER is not None else _nothing():
        module = _fresh(job["package"])
    with _RUNNER.pytest_logging(_LOGGING, capture=False) if _RUNNER is not None else _nothing():
        return _namespace_after(job, module)


def _namespace_after(job: dict, module) -> dict:
    # What the test file imports runs first (as when pytest imports the file): importing a submodule binds it as an
    # attribute of its package, so the package's globals are read after those imports.
    for modname in job.get("modules", []) + job["star"] + [m for m, _ in job["imports"]]:
        importlib.import_module(modname)
    if job.get("bindings") is not None:
        return _bindings_namespace(job, module)
    ns = dict(vars(module))
    for modname in job["star"]:
        sub = importlib.import_module(modname)
        names = getattr(sub, "__all__", None) or [n for n in vars(sub) if not n.startswith("_")]
        for n in names:
            ns[n] = getattr(sub, n)
    for modname, name in job["imports"]:
        sub = importlib.import_module(modname)
        if hasattr(sub, name):
            ns[name] = getattr(sub, name)
        else:
            ns[name] = importlib.import_module(f"{modname}.{name}")
    return ns


def _evaluate(expr: str, ns: dict, timeout: float, filters: list | None = None) -> dict:
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        if filters is not None:  # contract version 2: runner.py's evaluate_in, under the warning filters
            checked = _RUNNER.evaluate_in(ns, expr, filters, _LOGGING)
            if isinstance(checked.error, _Timeout):
                raise checked.error
            if checked.error is not None:
                exc = checked.error
                return {"truthy": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
            return {"truthy": checked.outcome == "pass"}
        return {"truthy": bool(eval(expr, ns))}
    except _Timeout:
        return {"truthy": False, "error": f"timeout after {timeout}s"}
    except BaseException as exc:  # noqa: BLE001 — everything an expression raises is a verdict
        return {"truthy": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _in_child(expr: str, ns: dict, timeout: float, filters: list | None = None) -> dict:
    """Evaluate in a forked child: it starts from the freshly imported module and nothing it does comes back."""
    read_end, write_end = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_end)
        try:
            data = json.dumps(_evaluate(expr, ns, timeout, filters)).encode()
        except BaseException as exc:  # noqa: BLE001
            data = json.dumps({"truthy": False, "error": f"{type(exc).__name__}: {exc}"[:300]}).encode()
        with os.fdopen(write_end, "wb") as fh:
            fh.write(data)
        os._exit(0)
    os.close(write_end)
    chunks = []
    deadline = time.monotonic() + timeout + 5
    with os.fdopen(read_end, "rb") as fh:
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fh], [], [], max(left, 0))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return {"truthy": False, "error": f"timeout after {timeout}s (killed)"}
            chunk = os.read(fh.fileno(), 65536)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        return {"truthy": False, "error": f"the evaluation died (wait status {status})"}
    return json.loads(b"".join(chunks))


def main() -> None:
    global _RUNNER, _LOGGING
    job = json.load(open(sys.argv[1]))
    _LOGGING = job.get("logging")
    out = open(sys.argv[2], "a")
    if job.get("bindings") is not None:
        _RUNNER = _load_runner(job["runner"])
    sys.path[:0] = job["sys_path"]
    signal.signal(signal.SIGALRM, _alarm)
    timeout = job.get("timeout", 10)
    file_filters = job.get("warning_filters") or []
    try:
        if _RUNNER is not None:  # the package is imported as pytest's collection imports the test file
            with _RUNNER.pytest_warnings(file_filters):
                ns = _namespace(job)
        else:
            ns = _namespace(job)
        failure = None
    except BaseException as exc:  # noqa: BLE001 — the package itself cannot be imported
        ns, failure = {}, f"importing {job['package']}: {type(exc).__name__}: {exc}"[:300]
    if _RUNNER is not None and not job.get("fork", True):
        _RUNNER.release_test_module(ns)  # each item builds (and registers) its own
    for index, expr, *own in job["items"]:
        filters = None if _RUNNER is None else file_filters + (own[0] if own else [])
        if failure:
            result = {"truthy": False, "error": failure}
        elif job.get("fork", True):
            result = _in_child(expr, ns, timeout, filters)
        else:  # a fresh import for every assertion, in this process
            item_ns = None
            try:
                with _RUNNER.pytest_warnings(file_filters) if _RUNNER is not None else _nothing():
                    item_ns = _namespace(job)
                result = _evaluate(expr, item_ns, timeout, filters)
            except BaseException as exc:  # noqa: BLE001
                result = {"truthy": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
            finally:
                # The test module build_namespace registered (a `__name__` binding) goes with its namespace,
                # so that the next item's is registered in its place.
                if _RUNNER is not None and item_ns is not None:
                    _RUNNER.release_test_module(item_ns)
        result["i"] = index
        out.write(json.dumps(result) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
