"""bench-explorer check's Python side: a fork server around www/py/runner.py.

Started once per worker thread of `bench-explorer check` (next to a copy of runner.py, the very file
the page's Pyodide worker runs). It imports pytest once, says `ready`, then reads one JSON request per
line on stdin and answers one JSON line per request on the protocol descriptor. Each request, one
(problem, solution) pair, runs in its own forked child, in a process group of its own, with:

* a wall-clock limit (`timeout` seconds): the whole group is killed (SIGKILL) when it passes;
* a memory limit (`memory_mb`, RLIMIT_AS) and a CPU-time limit (RLIMIT_CPU, a little above the
  wall-clock limit, so a child orphaned by a killed server still ends); in the sandbox's own user
  namespace, a process limit (RLIMIT_NPROC, PROCESSES);
* stdin, stdout and stderr on /dev/null: what the solution prints through sys.stdout/sys.stderr is
  captured and capped by runner.py, and what it writes to the descriptors directly is discarded;
* its own temporary directory, removed afterwards;
* no way to the server: the protocol pipe is closed in the child, and the server is not dumpable (no
  ptrace, no /proc/PID/mem without CAP_SYS_PTRACE, which the sandbox drops), so a solution cannot
  write the answers of the pairs after it.

The child calls runner.run_request (both views, exactly as the page does: the kept expressions in the
namespace the request's `bindings` describe) and writes the reply to a file; a child that ends without writing it (os._exit, a signal) is reported as crashed.

In the sandbox (`bench-explorer check` without --no-sandbox starts this server under bubblewrap,
which sets BENCH_EXPLORER_SANDBOX), the server is alone in its PID namespace with bwrap's init
(pid 1), and /tmp and the home folder are tmpfs of its own. After each pair it kills every other
process still in the namespace (a daemon the solution started in a session of its own, a fork loop's
leftovers) and removes whatever the pair added to /tmp, /dev/shm and the home folder, so each pair
starts from the same state.
"""

import gc
import importlib.metadata
import json
import os
import resource
import select
import shutil
import signal
import sys
import tempfile
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runner  # noqa: E402
import pytest  # noqa: E402,F401  imported once, before any fork

# Under bwrap's PID namespace this server is pid 2 (bwrap's init is 1); checking both keeps the
# sweep below from ever running on the host.
SANDBOXED = os.environ.get("BENCH_EXPLORER_SANDBOX") == "bwrap" and os.getpid() == 2
# Processes per pair, counting this server and bwrap's init. RLIMIT_NPROC counts a user's processes
# in one user namespace: in bwrap's own (any user but root), only the sandbox's. Outside one it
# would count all the user's processes, and root is exempt, so it is set only inside one.
PROCESSES = 256


def in_own_user_namespace() -> bool:
    try:
        with open("/proc/self/uid_map", encoding="ascii") as f:
            return f.read().split() != ["0", "0", "4294967295"]
    except OSError:
        return False


LIMIT_PROCESSES = SANDBOXED and in_own_user_namespace()
PROTOCOL = os.fdopen(os.dup(1), "w", encoding="utf-8")
DEVNULL = os.open(os.devnull, os.O_RDWR)
os.dup2(DEVNULL, 1)  # nothing else may write on the protocol


def not_dumpable() -> None:
    """PR_SET_DUMPABLE 0: without CAP_SYS_PTRACE (the sandbox drops every capability), no child
    can ptrace this server or write its memory through /proc/PID/mem."""
    try:
        import ctypes

        ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        pass


def child(req: dict, work: str) -> None:
    os.setpgid(0, 0)
    os.close(PROTOCOL.fileno())  # the solution must not write answers of its own
    for fd in (0, 1, 2):
        os.dup2(DEVNULL, fd)
    memory = int(req.get("memory_mb") or 0) << 20
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(req["timeout"]) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    if LIMIT_PROCESSES:
        resource.setrlimit(resource.RLIMIT_NPROC, (PROCESSES, PROCESSES))
    tempfile.tempdir = work
    runner.FORGET_AFTER_RUN = False  # this process ends after the run
    reply = runner.run_request(
        {
            "solution": req["solution"],
            "assertions": req["assertions"],
            "bindings": req.get("bindings"),
            "warning_filters": req.get("warning_filters"),
            "logging": req.get("logging"),
            "pytest_ini": req.get("pytest_ini"),
            "conftests": req.get("conftests"),
            "test_source": req["test_source"],
            "test_filename": req["test_filename"],
        }
    )
    part = os.path.join(work, "reply.json.part")
    with open(part, "w", encoding="utf-8") as f:
        json.dump(reply, f)
    os.rename(part, os.path.join(work, "reply.json"))


def wait(pid: int, timeout: float) -> tuple[int | None, bool]:
    """(wait status or None, timed out) for the child, killing its group at the deadline."""
    deadline = time.monotonic() + timeout
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status, False
            left = deadline - time.monotonic()
            if left <= 0:
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                os.waitpid(pid, 0)
                return None, True
            if pidfd is not None:
                select.select([pidfd], [], [], left)
            else:
                time.sleep(min(left, 0.002))
    finally:
        if pidfd is not None:
            os.close(pidfd)


def sweep() -> None:
    """Kill every process of the sandbox's PID namespace but bwrap's init and this server."""
    me = os.getpid()
    for _ in range(1000):
        alive = []
        for name in os.listdir("/proc"):
            if not name.isdigit() or int(name) in (1, me):
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    state = f.read().rsplit(b")", 1)[1].split()[0]
            except (OSError, IndexError):
                continue
            if state != b"Z":  # a zombie is dead already; bwrap's init reaps it
                alive.append(int(name))
        if not alive:
            return
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.001)


def scrub(keep: dict[str, set[str]]) -> None:
    """Remove what a pair added at the top of the sandbox's writable folders."""
    for folder, names in keep.items():
        try:
            entries = os.listdir(folder)
        except OSError:
            continue
        for name in entries:
            if name in names:
                continue
            path = os.path.join(folder, name)
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.unlink(path)
                except OSError:
                    pass


def serve_one(req: dict, base: str) -> dict:
    work = tempfile.mkdtemp(prefix="pair-", dir=base)
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            child(req, work)
        except BaseException:  # noqa: BLE001 - the parent reports the missing reply
            code = 70
        finally:
            os._exit(code)
    status, timed_out = wait(pid, float(req["timeout"]))
    try:
        os.killpg(pid, signal.SIGKILL)  # whatever the solution left running
    except (ProcessLookupError, PermissionError):
        pass
    answer = {"id": req.get("id"), "wall_ms": round((time.monotonic() - started) * 1000, 1)}
    reply_path = os.path.join(work, "reply.json")
    if timed_out:
        answer.update(status="timeout", detail=f"killed after {req['timeout']} s (wall-clock limit)")
    elif os.path.exists(reply_path):
        with open(reply_path, encoding="utf-8") as f:
            answer.update(status="ok", reply=json.load(f))
    elif os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        answer.update(status="crashed", detail=f"killed by signal {signal.Signals(sig).name}")
    else:
        answer.update(status="crashed", detail=f"exited with status {os.WEXITSTATUS(status)} before reporting")
    if SANDBOXED:
        sweep()
    shutil.rmtree(work, ignore_errors=True)
    return answer


# Runs before any fork: one that passes, and one whose tests and checks fail, by an assert and by
# an exception the solution raises, as most mutants' do.
WARM_UP = (
    {
        "solution": "def f():\n    return 1\n",
        "assertions": [{"id": 0, "expr": "f() == 1"}],
        "test_source": "from solution import f\n\ndef test_f():\n    assert f() == 1\n",
        "test_filename": "test_warm_up.py",
    },
    {
        "solution": "def f():\n    return 1\n\ndef g():\n    raise ValueError('warm-up')\n",
        "assertions": [{"id": 0, "expr": "f() == [2]"}, {"id": 1, "expr": "g() == 1"}],
        "test_source": (
            "from solution import f, g\n\n"
            "def test_f():\n    assert f() == [2]\n\n"
            "def test_g():\n    assert g() == 1\n"
        ),
        "test_filename": "test_warm_up.py",
    },
)


class _ReadOnce(importlib.metadata.PathDistribution):
    """An installed distribution whose metadata files are read once, by the server: pytest reads
    every distribution's entry points (plugins to load, modules to rewrite) in each session, about
    a hundred small files a pair otherwise."""

    def __init__(self, path):
        super().__init__(path)
        self._texts = {}

    def read_text(self, filename):
        if filename not in self._texts:
            self._texts[filename] = super().read_text(filename)
        return self._texts[filename]


def read_distributions_once() -> None:
    """`importlib.metadata.distributions()` (no arguments: every installed distribution, which is
    what pluggy and pytest ask) answered from a list read here, before any fork: the same
    distributions, in the same order, each reading its files once. The interpreter's folders are
    read-only in the sandbox, and what a pair writes is removed after it, so the answer is the one
    each pair would read."""
    found = []
    for dist in importlib.metadata.distributions():
        if type(dist) is importlib.metadata.PathDistribution:
            dist = _ReadOnce(dist._path)
            for name in ("METADATA", "entry_points.txt", "RECORD", "installed-files.txt", "SOURCES.txt"):
                dist.read_text(name)
        found.append(dist)
    discover = importlib.metadata.distributions

    def distributions(**kwargs):
        return iter(found) if not kwargs else discover(**kwargs)

    importlib.metadata.distributions = distributions


def warm_up(base: str) -> None:
    """Runs before any fork, so that what every pair would otherwise do again in its child is done
    once: pytest's plugins imported (the page's worker, too, runs many requests in one interpreter),
    and the caches a failure's report fills (a failing test's traceback asks `inspect.getmodule`,
    which maps every module in sys.modules to its real path the first time, about 8 ms; tokenize's
    compiled patterns). Caches only: each pair still runs its own pytest session on a fresh copy of
    this process. Then what the runs left is removed, and what exists is frozen, so the children's
    garbage collections (pytest runs several per session) skip it."""
    tempfile.tempdir = base
    saved = sys.stdout
    sys.stdout = open(os.devnull, "w")
    try:
        for request in WARM_UP:
            runner.run_request(request)
    finally:
        sys.stdout.close()
        sys.stdout = saved
        tempfile.tempdir = None
    # pytest keeps the last failure of a session in sys.last_* (the failing warm-up's): a pair's
    # child starts without one, as a fresh interpreter does.
    for name in ("last_type", "last_value", "last_traceback", "last_exc"):
        if hasattr(sys, name):
            delattr(sys, name)
    # The warm-up's own run directories and modules, once here rather than in every child.
    runner.forget_runs()
    read_distributions_once()
    gc.collect()
    gc.freeze()


def main() -> None:
    not_dumpable()
    base = tempfile.mkdtemp(prefix="bench-explorer-check-")
    warm_up(base)
    keep = {}
    if SANDBOXED:
        for folder in ("/tmp", "/dev/shm", os.path.expanduser("~")):
            try:
                keep[folder] = set(os.listdir(folder))
            except OSError:
                pass
    os.dup2(DEVNULL, 2)  # start-up errors are behind us
    PROTOCOL.write("ready\n")
    PROTOCOL.flush()
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            answer = serve_one(json.loads(line), base)
            if keep:
                scrub(keep)
            PROTOCOL.write(json.dumps(answer) + "\n")
            PROTOCOL.flush()
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
