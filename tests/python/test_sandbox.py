"""`check`'s sandbox (bubblewrap), end to end: hostile candidates are contained and reported,
honest verdicts are unchanged, `--no-sandbox` is explicit and recorded, a missing or broken bwrap
is refused in one line.

Each hostile candidate is the coin_change reference plus a few lines run at import (so at every
import: each assertion's fresh module and pytest's). The test then looks at the machine itself:
marker files, a listener on 127.0.0.1, processes.

Run: python3 -m pytest tests/python/test_sandbox.py -q (after `cargo build --bin bench-explorer`).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import uuid

import pytest

import faithful as fx

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sandbox is Linux-only")

SLUG = "coin_change"
REFERENCE = (fx.ROOT / "problems" / SLUG / "solution.py").read_text()
HOME = os.path.expanduser("~")


def check(*args, env: dict | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(fx.BIN), "check", "--python", sys.executable, *map(str, args)],
        capture_output=True, text=True, timeout=timeout, env=env,
    )


def processes_with(marker: str) -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if marker in cmdline:
                found.append(f"{pid}: {cmdline}")
    return found


class Listener:
    """A TCP listener on 127.0.0.1 that records every connection it accepts."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self.accepted = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while not self.stop.is_set():
            try:
                conn, addr = self.sock.accept()
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                return
            self.accepted.append(addr)
            conn.close()

    def close(self):
        self.stop.set()
        self.thread.join(5)
        self.sock.close()


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """One run of the bench's coin_change against every hostile candidate, one after another in one
    fork server (--jobs 1), so the last candidate also checks what the others left behind."""
    tmp = tmp_path_factory.mktemp("sandbox")
    mark = uuid.uuid4().hex[:12]
    number = f"0.{int(mark, 16) % 10**12:012d}"  # GNU sleep sums its arguments: a marker it accepts
    bench = tmp / "bench"
    shutil.copytree(fx.ROOT / "problems" / SLUG, bench / SLUG)
    test_file = bench / SLUG / f"test_{SLUG}.py"
    test_before = test_file.read_bytes()
    secret = os.path.join(HOME, f".bench-explorer-secret-{mark}")
    with open(secret, "w") as f:
        f.write(f"the secret {mark[::-1]}")
    home_written = os.path.join(HOME, f"bench-explorer-written-{mark}")
    checkout_written = fx.ROOT / f"bench-explorer-written-{mark}"
    listener = Listener()
    hostile_lines = {
        # Sorted by name, run in this order: the parent dies first, the census comes last.
        "a_kill_parent": "import os\nos.kill(os.getppid(), 9)\n",
        "b_write_home": f"open({home_written!r}, 'w').write('escaped')\n",
        "c_write_checkout": f"open({str(checkout_written)!r}, 'w').write('escaped')\n",
        "d_modify_test_file": f"open({str(test_file)!r}, 'a').write('\\ndef test_planted():\\n    pass\\n')\n",
        "e_read_home": f"print(open({secret!r}).read())\n",
        "f_read_checkout": f"print(open({str(fx.ROOT / 'README.md')!r}).read()[:100])\n",
        "g_socket": f"import socket\nsocket.create_connection(('127.0.0.1', {listener.port}), timeout=2).sendall(b'x')\n",
        "h_daemon": (
            "import subprocess\n"
            f"subprocess.Popen(['sleep', '600', {number!r}], start_new_session=True,\n"
            "                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        ),
        # A fork loop, bounded (300 processes) so that a broken sandbox cannot exhaust the host's pids.
        "i_fork_loop": (
            "import os, time\n"
            "for _ in range(300):\n"
            "    if os.fork() == 0:\n"
            "        os.setsid()\n"
            f"        os.execv('/bin/sleep', ['sleep', '600', {number!r}])\n"
            "time.sleep(600)\n"
        ),
        "j_fill_tmp": (
            "import os, tempfile, uuid\n"
            f"with open(os.path.join(tempfile.gettempdir(), 'fill-{mark}-' + uuid.uuid4().hex), 'wb') as f:\n"
            "    while True:\n"
            "        f.write(b'\\0' * (1 << 20))\n"
        ),
        # Forged answers on every inherited descriptor (the server's protocol pipe among them), and
        # the server's memory through /proc: the pairs after it must still get their own answers.
        "k_forge": (
            "import os\n"
            "for _fd in range(3, 256):\n"
            "    try:\n"
            "        os.write(_fd, b'{\"status\": \"ok\", \"reply\": null, \"wall_ms\": 0}\\n')\n"
            "    except OSError:\n"
            "        pass\n"
            "try:\n"
            "    open(f'/proc/{os.getppid()}/mem', 'r+b').close()\n"
            "except OSError:\n"
            "    pass\n"
            "else:\n"
            "    raise SystemExit('the server is writable')\n"
        ),
        # Honest code that looks around: no process but bwrap's init, the server and itself; no
        # file the earlier candidates left in /tmp or the home folder.
        "z_census": (
            "import os\n"
            "_others = [p for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, os.getpid(), os.getppid())]\n"
            "assert not _others, _others\n"
            "assert all(n.startswith('bench-explorer-') for n in os.listdir('/tmp')), os.listdir('/tmp')\n"
            f"assert not os.path.exists({home_written!r})\n"
        ),
    }
    candidates = tmp / "candidates"
    candidates.mkdir()
    for name, lines in hostile_lines.items():
        (candidates / f"{name}.py").write_text(lines + "\n" + REFERENCE)
    (candidates / "honest.py").write_text(REFERENCE)
    try:
        proc = check(bench / SLUG, "--solutions", candidates, "--jobs", "1", "--timeout", "4",
                     "--memory", "1024", "--json", timeout=180)
        leftovers = processes_with(number)
    finally:
        listener.close()
        os.unlink(secret)
        escaped = [p for p in (home_written, checkout_written) if os.path.exists(p)]
        for p in escaped:
            os.unlink(p)
    yield {
        "proc": proc,
        "report": json.loads(proc.stdout) if proc.stdout.startswith("{") else None,
        "escaped": escaped,
        "leftovers": leftovers,
        "accepted": listener.accepted,
        "test_changed": test_file.read_bytes() != test_before,
        "mark": mark,
        "bench": bench,
        "candidates": candidates,
    }


def pair(hostile, name: str) -> dict:
    [p] = [p for p in hostile["report"]["pairs"] if p["solution"] == f"{name}.py"]
    return p


def verdict_set(p: dict) -> set[str]:
    return {r["verdict"] for r in p["rows"] if r["status"] == "kept"}


def test_the_hostile_run_completes_in_the_sandbox(hostile):
    assert hostile["proc"].returncode == 0, hostile["proc"].stderr
    report = hostile["report"]
    assert report["sandbox"] == ["bwrap"]
    assert {p["sandbox"] for p in report["pairs"]} == {"bwrap"}
    assert report["totals"]["pairs"] == 13


def test_the_machine_is_as_it_was(hostile):
    assert hostile["escaped"] == [], "a candidate wrote outside the sandbox"
    assert not hostile["test_changed"], "a candidate changed the problem's test file"
    assert hostile["accepted"] == [], "a candidate reached the listener on 127.0.0.1"
    assert hostile["leftovers"] == [], "a candidate's process outlived the run"
    assert f"the secret {hostile['mark'][::-1]}" not in hostile["proc"].stdout + hostile["proc"].stderr
    assert not [n for n in os.listdir("/tmp") if hostile["mark"] in n]


@pytest.mark.parametrize("name", ["c_write_checkout", "d_modify_test_file", "e_read_home", "f_read_checkout", "g_socket"])
def test_a_blocked_action_is_the_candidates_failure(hostile, name):
    p = pair(hostile, name)
    # The action raised at import: pytest could not collect, each assertion is a solution bug.
    assert p["status"] == "ok"
    assert verdict_set(p) == {"solution-bug"}, p["rows"]
    assert p["collection_errors"]


def test_forged_answers_and_the_servers_memory_are_out_of_reach(hostile):
    p = pair(hostile, "k_forge")
    assert p["status"] == "ok"
    assert verdict_set(p) == {"agree"}, p["rows"]


def test_killing_the_parent_is_a_crash(hostile):
    p = pair(hostile, "a_kill_parent")
    assert p["status"] == "crashed"
    assert verdict_set(p) == {"solution-bug"}


def test_a_fork_loop_is_stopped(hostile):
    p = pair(hostile, "i_fork_loop")
    if os.getuid() == 0:
        # RLIMIT_NPROC does not bind root: the loop runs until the wall-clock limit.
        assert p["status"] == "timeout"
    else:
        # In bwrap's user namespace, fork fails at the sandbox's process limit (256).
        assert p["status"] == "ok"
        assert any("Resource temporarily unavailable" in (r.get("error") or "") for r in p["rows"])
    assert verdict_set(p) == {"solution-bug"}


def test_filling_the_temporary_folder_is_a_crash(hostile):
    p = pair(hostile, "j_fill_tmp")
    assert p["status"] in ("crashed", "timeout")
    assert verdict_set(p) == {"solution-bug"}


@pytest.mark.parametrize("name", ["b_write_home", "h_daemon", "z_census"])
def test_what_the_sandbox_absorbs_leaves_the_verdicts_alone(hostile, name):
    # Writing into the (empty, private) home folder and a daemon in a session of its own succeed
    # inside the sandbox and vanish with it; the census finds nothing left by the others.
    p = pair(hostile, name)
    assert p["status"] == "ok"
    if name == "b_write_home" and HOME.startswith("/tmp/"):
        # A home under /tmp is not given a tmpfs of its own: it is absent, like the rest of /tmp.
        assert verdict_set(p) == {"solution-bug"}, p["rows"]
    else:
        assert verdict_set(p) == {"agree"}, p["rows"]


def test_honest_verdicts_equal_the_unsandboxed_ones(hostile):
    proc = check(hostile["bench"] / SLUG, "--no-sandbox", "--json")
    assert proc.returncode == 0, proc.stderr
    bare = json.loads(proc.stdout)
    assert bare["sandbox"] == ["none"]
    [reference] = bare["pairs"]
    honest = pair(hostile, "honest")

    assert (honest["rows"], honest["pytest"]) == (reference["rows"], reference["pytest"])
    assert verdict_set(honest) == {"agree"}


def test_no_sandbox_is_recorded_in_every_output(tmp_path):
    jsonl = tmp_path / "out.jsonl"
    proc = check(fx.ROOT / "problems" / SLUG, "--no-sandbox", "--jsonl", jsonl)
    assert proc.returncode == 0, proc.stderr
    assert "no sandbox" in proc.stdout
    [line] = [json.loads(l) for l in jsonl.read_text().splitlines()]
    assert line["sandbox"] == "none"
    junit = tmp_path / "out.xml"
    proc = check(fx.ROOT / "problems" / SLUG, "--junit", junit)
    assert proc.returncode == 0, proc.stderr
    assert "sandbox bwrap" in proc.stdout
    assert '<property name="sandbox" value="bwrap"/>' in junit.read_text()
    # `report` merges a sandboxed and an unsandboxed shard, and says both.
    sandboxed = tmp_path / "boxed.jsonl"
    assert check(fx.ROOT / "problems" / SLUG, "--jsonl", sandboxed).returncode == 0
    proc = subprocess.run([str(fx.BIN), "report", "--json", str(jsonl), str(sandboxed)],
                          capture_output=True, text=True)
    assert json.loads(proc.stdout)["sandbox"] == ["bwrap", "none"]


@pytest.mark.parametrize(
    "env, words",
    [
        ({"BENCH_EXPLORER_BWRAP": "/nonexistent/bwrap"}, ["bubblewrap", "does not exist", "apt-get install bubblewrap"]),
        ({"PATH": "/nonexistent"}, ["bubblewrap", "not on PATH", "apt-get install bubblewrap"]),
        ({"BENCH_EXPLORER_BWRAP": "/bin/false"}, ["cannot start", "user namespaces"]),
    ],
    ids=["override-missing", "not-on-path", "cannot-start"],
)
def test_no_usable_bwrap_is_a_clear_refusal(env, words):
    full = {**os.environ, **env}
    proc = check(fx.ROOT / "problems" / SLUG, env=full, timeout=60)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert proc.stdout == ""
    [line] = proc.stderr.strip().splitlines()
    for w in words + ["--no-sandbox"]:
        assert w in line, line
    # The explicit way out still runs.
    proc = check(fx.ROOT / "problems" / SLUG, "--no-sandbox", env=full, timeout=60)
    assert proc.returncode == 0, proc.stderr
