"""Evaluate kept assertions of one test file in the extraction contract's namespace (run in the corpus venv).

    python rw_eval.py JOB.json OUT.jsonl

JOB: {"package": import name, "sys_path": [folders to put first], "imports": [[module, name], ...],
"star": [module, ...], "items": [[index, expr], ...], "timeout": seconds}.

For each item: drop the package and its submodules from `sys.modules`, import it afresh, build the namespace from
its globals plus each name the test file imports from it or its submodules (under its own name), evaluate the
expression and its truth value. One JSON line per item is appended to OUT (flushed), so that the caller can tell
which item a crash or a hang happened on and resume after it.
"""

from __future__ import annotations

import importlib
import json
import signal
import sys


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


def _fresh(package: str):
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[name]
    return importlib.import_module(package)


def _namespace(job: dict) -> dict:
    module = _fresh(job["package"])
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


def main() -> None:
    job = json.load(open(sys.argv[1]))
    out = open(sys.argv[2], "a")
    sys.path[:0] = job["sys_path"]
    signal.signal(signal.SIGALRM, _alarm)
    timeout = job.get("timeout", 10)
    for index, expr in job["items"]:
        result: dict = {"i": index}
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            ns = _namespace(job)
            result["truthy"] = bool(eval(expr, ns))
        except _Timeout:
            result["truthy"] = False
            result["error"] = f"timeout after {timeout}s"
        except BaseException as exc:  # noqa: BLE001 — everything an expression raises is a verdict
            result["truthy"] = False
            result["error"] = f"{type(exc).__name__}: {exc}"[:300]
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        out.write(json.dumps(result) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
