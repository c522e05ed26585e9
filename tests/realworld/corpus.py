"""The real-world corpus check: real packages' own pytest suites against the extractor's kept assertions.

    python3 tests/realworld/corpus.py [--packages a,b] [--max-files N] [--jobs N] [--offline]

For each package of `packages.toml`: fetch its sdist from PyPI at the pinned version (sha256 checked; cached in
`.cache/realworld/`, git-ignored), install it into a dedicated venv with pinned pytest, then for each test file:

1. run pytest on the file alone with a small plugin (`rw_plugin.py`) that records every collected node id, each
   test's outcome, where a failing test stopped, and which lines of the file ran;
2. extract it with `bench-explorer extract --json --solution-module IMPORT`;
3. evaluate every kept assertion in the contract's namespace (`rw_eval.py`, in a subprocess per file: a fresh
   import of the package per assertion, then www/py/runner.py's `build_namespace` with the extraction's
   `bindings`; for a version 1 extraction, its globals plus the names the file imports from it).

A kept assertion of a passing test whose assert line ran is a **false fail** when it is not truthy; a kept
assertion that is truthy where pytest failed that assert, did not run it, or skipped/xfailed/errored the test is a
**phantom pass**; an emitted `test` that pytest did not collect is an **unmatched id**. The Markdown table goes to
stdout and the whole report (with every false fail and phantom pass) to `.cache/realworld/report.json`.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import fnmatch
import glob
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CACHE = pathlib.Path(os.environ.get("REALWORLD_CACHE", ROOT / ".cache" / "realworld"))
MANIFEST = HERE / "packages.toml"
BIN = pathlib.Path(os.environ.get("BENCH_EXPLORER_BIN", ROOT / "target" / "debug" / "bench-explorer"))
PYPI = os.environ.get("REALWORLD_PYPI", "https://pypi.org/pypi")

PYTEST_TIMEOUT = 180  # seconds for one test file under pytest (a package's session gets a third of that per file)
EVAL_TIMEOUT = 10  # seconds for one kept assertion
EVAL_FILE_TIMEOUT = 300  # seconds for all kept assertions of one file
FORK = os.environ.get("REALWORLD_NO_FORK") is None  # see rw_eval.py: fork from one fresh import, or re-import


class Unreachable(RuntimeError):
    """PyPI could not be reached and the cache does not hold what is needed."""


# ---------------------------------------------------------------------------------------------------------------
# Fetching and installing


def manifest() -> dict:
    with open(MANIFEST, "rb") as fh:
        return tomllib.load(fh)


def _sha256(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(pkg: dict, log=print) -> pathlib.Path:
    """The verified sdist of `pkg`, downloaded only when it is not cached already."""
    dest = CACHE / "sdists" / pkg["filename"]
    if dest.exists() and _sha256(dest) == pkg["sha256"]:
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    # The project's JSON lists every release's files (some mirrors do not serve the per-version page).
    meta_url = f"{PYPI}/{pkg['name']}/json"
    try:
        with urllib.request.urlopen(meta_url, timeout=30) as resp:
            meta = json.load(resp)
        files = [u for u in meta.get("releases", {}).get(pkg["version"], []) if u["filename"] == pkg["filename"]]
        if not files:
            raise RuntimeError(f"{pkg['filename']} is not among the files PyPI lists for {pkg['name']} {pkg['version']}")
        url = urllib.parse.urljoin(meta_url, files[0]["url"])
        log(f"fetching {pkg['filename']}")
        with urllib.request.urlopen(url, timeout=120) as resp:
            data = resp.read()
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        raise Unreachable(f"cannot fetch {pkg['name']}=={pkg['version']} from {PYPI}: {exc}") from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != pkg["sha256"]:
        raise RuntimeError(f"{pkg['filename']}: sha256 {digest} is not the pinned {pkg['sha256']}")
    tmp = dest.with_suffix(".part")
    tmp.write_bytes(data)
    tmp.replace(dest)
    return dest


def unpack(pkg: dict, sdist: pathlib.Path) -> pathlib.Path:
    """The sdist's folder under the cache (unpacked once)."""
    base = CACHE / "src"
    root = base / f"{pkg['name']}-{pkg['version']}"
    stamp = root / ".realworld-unpacked"
    if stamp.exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        with tarfile.open(sdist) as tar:
            tar.extractall(tmp, filter="data")
        (top,) = pathlib.Path(tmp).iterdir()
        base.mkdir(parents=True, exist_ok=True)
        shutil.move(str(top), root)
    stamp.write_text(pkg["sha256"])
    return root


def venv_python() -> pathlib.Path:
    return CACHE / "venv" / "bin" / "python"


def ensure_venv(man: dict, sdists: dict[str, pathlib.Path], log=print) -> pathlib.Path:
    """A venv with the pinned requirements and every corpus sdist installed; brought up to date when the manifest
    changes (only what changed is installed again)."""
    venv = CACHE / "venv"
    stamp = venv / ".realworld-stamp.json"
    want = {"python": sys.version, "requirements": man["requirements"],
            "sdists": {p["name"]: p["sha256"] for p in man["package"]}}
    have = json.loads(stamp.read_text()) if stamp.exists() else {}
    if have == want and venv_python().exists():
        return venv_python()
    if have.get("python") != want["python"] or not venv_python().exists():
        log("building the corpus venv (once)")
        if venv.exists():
            shutil.rmtree(venv)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        have = {}
    pip = [str(venv_python()), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if have.get("requirements") != want["requirements"]:
        log("installing the pinned requirements into the corpus venv")
        proc = subprocess.run(pip + man["requirements"], capture_output=True, text=True)
        if proc.returncode != 0:
            if "Could not find" in proc.stderr or "connection" in proc.stderr.lower():
                raise Unreachable(f"pip could not install the pinned requirements: {proc.stderr[-1500:]}")
            raise RuntimeError(proc.stderr[-3000:])
    for pkg in man["package"]:
        if have.get("sdists", {}).get(pkg["name"]) == pkg["sha256"]:
            continue
        log(f"installing {pkg['filename']} into the corpus venv")
        env = dict(os.environ, **pkg.get("env", {}))
        cmd = pip + ["--no-deps", "--force-reinstall", str(sdists[pkg["name"]])]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            raise RuntimeError(f"installing {pkg['name']}: {proc.stderr[-3000:]}")
    stamp.write_text(json.dumps(want))
    return venv_python()


def freeze(python: pathlib.Path) -> list[str]:
    out = subprocess.run([str(python), "-m", "pip", "freeze", "--all"], capture_output=True, text=True)
    return out.stdout.split()


# ---------------------------------------------------------------------------------------------------------------
# One test file


def test_files(pkg: dict, root: pathlib.Path, max_files: int | None) -> list[pathlib.Path]:
    found: set[pathlib.Path] = set()
    for pattern in pkg["tests"]:
        found.update(pathlib.Path(p) for p in glob.glob(str(root / pattern)))
    excluded = [str(root / e) for e in pkg.get("exclude", [])]
    files = sorted(p for p in found if not any(fnmatch.fnmatch(str(p), e) for e in excluded))
    cap = pkg.get("max_files", max_files)
    return files[:cap] if cap else files


def _pytest_basedir(path: pathlib.Path) -> pathlib.Path:
    """The folder pytest's default `prepend` import mode puts first on sys.path for this file."""
    folder = path.parent
    while (folder / "__init__.py").exists():
        folder = folder.parent
    return folder


def run_pytest(python: pathlib.Path, root: pathlib.Path, paths: list[pathlib.Path], args: list[str],
               timeout: float) -> dict:
    """One pytest session over `paths` (the package's own configuration applies), with the recording plugin."""
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "plugin.json"
        env = dict(os.environ, RW_PLUGIN_OUT=str(out), PYTHONPATH=str(HERE), PYTHONDONTWRITEBYTECODE="1")
        env.pop("PYTEST_ADDOPTS", None)
        cmd = [str(python), "-m", "pytest", *map(str, paths), "-p", "no:cacheprovider", "-p", "rw_plugin", "-q",
               "--no-header", "-rN", "--continue-on-collection-errors", "--basetemp",
               str(pathlib.Path(tmp) / "basetemp"), *args]
        started = time.monotonic()
        try:
            proc = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"error": f"pytest timed out after {timeout:.0f}s"}
        if not out.exists():
            return {"error": f"pytest exited {proc.returncode}: {(proc.stdout + proc.stderr)[-800:]}"}
        data = json.loads(out.read_text())
        data["seconds"] = round(time.monotonic() - started, 2)
        if proc.returncode not in (0, 1, 5):
            data["error"] = f"pytest exited {proc.returncode}: {(proc.stdout + proc.stderr)[-800:]}"
        return data


def split_by_file(data: dict, paths: list[pathlib.Path]) -> dict[pathlib.Path, dict]:
    """One session's record cut into one record per test file."""
    per = {p: {"collected": [], "deselected": [], "tests": {}} for p in paths}
    real = {os.path.realpath(p): p for p in paths}
    where: dict[str, pathlib.Path] = {}
    for nodeid, path in data.get("collected", []):
        if path in real:
            per[real[path]]["collected"].append(nodeid)
            where[nodeid] = real[path]
    for nodeid in data.get("deselected", []):
        if nodeid in where:
            per[where[nodeid]]["deselected"].append(nodeid)
    for nodeid, rec in data.get("tests", {}).items():
        if nodeid in where:
            per[where[nodeid]]["tests"][nodeid] = rec
    for path, message in data.get("collect_errors", {}).items():
        for p in paths:
            if os.path.realpath(p) == path or path.endswith(os.sep + p.name):
                per[p]["error"] = f"pytest could not collect it: {message[-800:]}"
    for p in paths:
        if data.get("error"):
            per[p]["error"] = data["error"]
        per[p]["session_seconds"] = data.get("seconds")
    return per


def pytest_package(python: pathlib.Path, pkg: dict, root: pathlib.Path, paths: list[pathlib.Path],
                   log=print) -> dict[pathlib.Path, dict]:
    """pytest's record of each file: one session for the package; if it hangs or dies, one session per file,
    each with its own time limit."""
    args = pkg.get("pytest_args", [])
    data = run_pytest(python, root, paths, args, PYTEST_TIMEOUT * max(1, len(paths)) / 3)
    if "tests" in data:
        return split_by_file(data, paths)
    log(f"{pkg['name']}: {data['error'][:200]}; running its files one by one")
    out = {}
    for p in paths:
        out.update(split_by_file(run_pytest(python, root, [p], args, PYTEST_TIMEOUT), [p]))
    return out


def run_extract(path: pathlib.Path, module: str) -> dict:
    cmd = [str(BIN), "extract", "--json", "--solution-module", module, str(path)]
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode not in (0, 1) or not proc.stdout.strip():
        return {"error": f"extract exited {proc.returncode}: {proc.stderr[-800:]}", "assertions": []}
    data = json.loads(proc.stdout)
    data["seconds"] = round(time.monotonic() - started, 3)
    return data


def solution_imports(source: str, module: str) -> tuple[list[list[str]], list[str], list[str]]:
    """Names the test file imports from `module` or its submodules (anywhere in the file), its star imports, and
    the submodules it imports with `import M.sub` (which bind `sub` in M's globals, adding no name of their own)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return [], [], []
    names: list[list[str]] = []
    star: list[str] = []
    modules: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules += [a.name for a in node.names if a.name.startswith(module + ".")]
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == module or node.module.startswith(module + "."):
                for alias in node.names:
                    if alias.name == "*":
                        star.append(node.module)
                    else:
                        names.append([node.module, alias.name])
    return names, star, modules


def run_eval(python: pathlib.Path, root: pathlib.Path, path: pathlib.Path, module: str,
             items: list[tuple], bindings: list[dict] | None = None,
             warning_filters: list[dict] | None = None, logging_spec: dict | None = None) -> dict[int, dict]:
    """Each item's verdict; a crash or a hang is the verdict of the item it happened on, and the rest resume."""
    imports, star, modules = solution_imports(path.read_text(errors="replace"), module)
    results: dict[int, dict] = {}
    pending = list(items)
    deadline = time.monotonic() + EVAL_FILE_TIMEOUT
    with tempfile.TemporaryDirectory() as tmp:
        while pending:
            job = pathlib.Path(tmp) / "job.json"
            out = pathlib.Path(tmp) / "out.jsonl"
            out.write_text("")
            job.write_text(json.dumps({"package": module, "sys_path": [str(_pytest_basedir(path))],
                                       "imports": imports, "star": star, "modules": modules, "items": pending,
                                       "timeout": EVAL_TIMEOUT, "fork": FORK, "bindings": bindings,
                                       "warning_filters": warning_filters or [], "logging": logging_spec,
                                       "runner": str(ROOT / "www" / "py" / "runner.py")}))
            left = deadline - time.monotonic()
            error = None
            try:
                proc = subprocess.run([str(python), str(HERE / "rw_eval.py"), str(job), str(out)], cwd=root,
                                      capture_output=True, text=True, timeout=max(left, 1),
                                      env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
                if proc.returncode != 0:
                    error = f"evaluator exited {proc.returncode}: {proc.stderr[-300:]}"
            except subprocess.TimeoutExpired:
                error = "evaluator timed out"
            for line in out.read_text().splitlines():
                rec = json.loads(line)
                results[rec["i"]] = rec
            pending = [it for it in pending if it[0] not in results]
            if pending and error:
                results[pending[0][0]] = {"i": pending[0][0], "truthy": False, "error": error}
                pending = pending[1:]
            if time.monotonic() > deadline:
                for idx, *_ in pending:
                    results[idx] = {"i": idx, "truthy": False, "error": "not evaluated: file time limit"}
                break
    return results


@dataclass
class FileResult:
    package: str
    file: str
    size: int
    pytest: dict
    extraction: dict
    entries: list[dict] = field(default_factory=list)


def check_file(python: pathlib.Path, pkg: dict, root: pathlib.Path, path: pathlib.Path, pyt: dict) -> FileResult:
    module = pkg["import"]
    ext = run_extract(path, module)
    kept = [(i, a["expr"], a.get("warning_filters") or []) for i, a in enumerate(ext.get("assertions", []))
            if a.get("status") == "kept"]
    started = time.monotonic()
    verdicts = run_eval(python, root, path, module, kept, ext.get("bindings"),
                        ext.get("warning_filters"), ext.get("logging")) if kept else {}
    ext["eval_seconds"] = round(time.monotonic() - started, 2)
    collected = {nid.split("::", 1)[1] for nid in pyt.get("collected", []) if "::" in nid}
    deselected = {nid.split("::", 1)[1] for nid in pyt.get("deselected", []) if "::" in nid}
    tests = {nid.split("::", 1)[1]: rec for nid, rec in pyt.get("tests", {}).items() if "::" in nid}
    result = FileResult(pkg["name"], str(path.relative_to(root)), path.stat().st_size, pyt, ext)
    for i, a in enumerate(ext.get("assertions", [])):
        test = a.get("test", "")
        rec = tests.get(test)
        entry = {"test": test, "line": a.get("line"), "status": a.get("status"), "source": a.get("source"),
                 "matched": test in collected, "outcome": rec["outcome"] if rec else
                 ("deselected" if test in deselected else None)}
        if a.get("status") == "kept":
            entry["expr"] = a.get("expr", "")
            v = verdicts.get(i, {"truthy": False, "error": "no verdict"})
            entry["truthy"] = v["truthy"]
            if v.get("error"):
                entry["error"] = v["error"]
        else:
            entry["reason"] = a.get("reason", "")
            rule = a.get("rule") or {}
            entry["rule"] = f"{rule.get('code', '-')} {rule.get('name', '(no rule)')}"
        if pyt.get("error") or ext.get("error"):
            entry["file_error"] = True
        ran = rec is not None and a.get("line") in set(rec.get("lines") or [])
        entry["ran"] = ran
        entry["verdict"] = classify(entry, rec, ran)
        result.entries.append(entry)
    return result


def classify(entry: dict, rec: dict | None, ran: bool) -> str:
    """What the entry says about the contract: see the module docstring."""
    outcome = entry["outcome"]
    kept = entry["status"] == "kept"
    if entry.get("file_error"):
        return "file-error"
    if rec is None or outcome is None or outcome == "deselected":
        return "unmatched" if not entry["matched"] else "not-run-by-pytest"
    if outcome == "passed":
        if not ran:
            return "phantom-pass" if kept and entry["truthy"] else "assert-not-run"
        if not kept:
            return "dropped"
        return "ok" if entry["truthy"] else "false-fail"
    if outcome == "failed":
        fail_line = rec.get("fail_line")
        if ran and entry["line"] != fail_line:
            # pytest ran this assert and went past it: it passed
            if not kept:
                return "dropped-in-failing-test"
            return "ok-in-failing-test" if entry["truthy"] else "false-fail"
        return "phantom-pass" if kept and entry["truthy"] else "faithful-in-failing-test"
    # skipped, xfailed, xpassed, error: no assert of the test may be kept as passing
    return "phantom-pass" if kept and entry["truthy"] else "faithful-in-skipped-test"


# ---------------------------------------------------------------------------------------------------------------
# The run and its report


def summarize(results: list[FileResult], packages: list[str]) -> dict:
    rows = {}
    for name in packages + ["total"]:
        mine = [r for r in results if name == "total" or r.package == name]
        ents = [e for r in mine for e in r.entries]
        executed = [e for e in ents if e["outcome"] == "passed" and e["ran"]]
        kept = [e for e in executed if e["status"] == "kept"]
        dropped = [e for e in executed if e["status"] != "kept"]
        rules: dict[str, int] = {}
        for e in dropped:
            rule = e.get("rule", "- (no rule)")
            rules[rule] = rules.get(rule, 0) + 1
        rows[name] = {
            "files": len(mine),
            "tests_passed": sum(1 for r in mine for t in r.pytest.get("tests", {}).values() if t["outcome"] == "passed"),
            "entries": len(ents),
            "asserts_run_in_passing_tests": len(executed),
            "kept": len(kept),
            "dropped": len(dropped),
            "retention": round(100 * len(kept) / len(executed), 1) if executed else None,
            "false_fails": sum(1 for e in ents if e["verdict"] == "false-fail"),
            "phantom_passes": sum(1 for e in ents if e["verdict"] == "phantom-pass"),
            "unmatched_ids": sum(1 for e in ents if not e["matched"] and not e.get("file_error")),
            "kept_total": sum(1 for e in ents if e["status"] == "kept"),
            "kept_not_run": sum(1 for e in ents if e["verdict"] == "assert-not-run" and e["status"] == "kept"),
            "output_chars": sum(len(e.get("expr", "")) for e in ents if e["status"] == "kept"),
            "input_chars": sum(r.size for r in mine),
            "dropped_by_rule": dict(sorted(rules.items(), key=lambda kv: (-kv[1], kv[0]))),
            "file_errors": [f"{r.file}: {r.pytest.get('error') or r.extraction.get('error')}" for r in mine
                            if r.pytest.get("error") or r.extraction.get("error")],
        }
    return rows


def markdown(rows: dict, top_rules: int = 12) -> str:
    head = ("| package | files | asserts run in passing tests | kept | dropped | retention | false fails | "
            "phantom passes | unmatched ids | output / input chars |")
    lines = [head, "|" + " --- |" * 10]
    for name, r in rows.items():
        ratio = f"{r['output_chars']:,} / {r['input_chars']:,}"
        if r["input_chars"]:
            ratio += f" ({r['output_chars'] / r['input_chars']:.2f}×)"
        ret = "–" if r["retention"] is None else f"{r['retention']}%"
        label = f"**{name}**" if name == "total" else name
        lines.append(f"| {label} | {r['files']} | {r['asserts_run_in_passing_tests']:,} | {r['kept']:,} | "
                     f"{r['dropped']:,} | {ret} | {r['false_fails']} | {r['phantom_passes']} | "
                     f"{r['unmatched_ids']} | {ratio} |")
    total = rows["total"]
    lines += ["", "Dropped, by rule (asserts run in passing tests; `bench-explorer rule CODE` explains each):", "",
              "| rule | count |", "| --- | --- |"]
    for rule, n in list(total["dropped_by_rule"].items())[:top_rules]:
        code, _, name = rule.partition(" ")
        lines.append(f"| {code} `{name}` | {n:,} |")
    rest = sum(list(total["dropped_by_rule"].values())[top_rules:])
    if rest:
        lines.append(f"| (other rules) | {rest:,} |")
    return "\n".join(lines)


def run(packages: list[str] | None = None, max_files: int | None = None, jobs: int = 2, log=print) -> dict:
    started = time.monotonic()
    if not BIN.exists():
        raise RuntimeError(f"{BIN} is missing: run `cargo build --bin bench-explorer` first")
    man = manifest()
    chosen = [p for p in man["package"] if not packages or p["name"] in packages]
    CACHE.mkdir(parents=True, exist_ok=True)
    sdists = {p["name"]: fetch(p, log) for p in man["package"]}
    roots = {p["name"]: unpack(p, sdists[p["name"]]) for p in chosen}
    python = ensure_venv(man, sdists, log)
    files = {p["name"]: test_files(p, roots[p["name"]], max_files) for p in chosen}
    log(f"running pytest on {sum(map(len, files.values()))} test files of {len(chosen)} packages")
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        sessions = dict(zip([p["name"] for p in chosen], pool.map(
            lambda p: pytest_package(python, p, roots[p["name"]], files[p["name"]], log), chosen)))
    work = [(p, roots[p["name"]], f, sessions[p["name"]][f]) for p in chosen for f in files[p["name"]]]
    log("extracting and evaluating")
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda w: check_file(python, *w), work))
    rows = summarize(results, [p["name"] for p in chosen])
    false_fails = [dict(package=r.package, file=r.file, **{k: e.get(k) for k in
                        ("test", "line", "source", "expr", "error", "outcome")},
                        pytest_saw=describe(e)) for r in results for e in r.entries if e["verdict"] == "false-fail"]
    phantoms = [dict(package=r.package, file=r.file, **{k: e.get(k) for k in ("test", "line", "source", "expr")},
                     pytest_saw=describe(e)) for r in results for e in r.entries if e["verdict"] == "phantom-pass"]
    unmatched = [dict(package=r.package, file=r.file, test=e["test"], line=e["line"]) for r in results
                 for e in r.entries if not e["matched"] and not e.get("file_error")]
    report = {
        "packages": [{k: p[k] for k in ("name", "version", "sha256", "import")} for p in chosen],
        "venv": freeze(python),
        "bin": str(BIN.relative_to(ROOT)) if BIN.is_relative_to(ROOT) else BIN.name,
        "max_files": max_files,
        "seconds": round(time.monotonic() - started, 1),
        "rows": rows,
        "false_fails": false_fails,
        "phantom_passes": phantoms,
        "unmatched_ids": unmatched,
        "files": [{"package": r.package, "file": r.file, "pytest_session_seconds": r.pytest.get("session_seconds"),
                   "extract_seconds": r.extraction.get("seconds"),
                   "eval_seconds": r.extraction.get("eval_seconds"), "error": r.pytest.get("error")
                   or r.extraction.get("error"), "entries": r.entries} for r in results],
    }
    report["markdown"] = markdown(rows)
    (CACHE / "report.json").write_text(json.dumps(report, indent=1))
    return report


def describe(entry: dict) -> str:
    outcome = entry["outcome"]
    if outcome == "passed":
        return "the test passed and this assert ran"
    return f"the test {outcome}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--packages", help="comma-separated package names (default: all of packages.toml)")
    ap.add_argument("--max-files", type=int, help="at most this many test files per package")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-fork", action="store_true",
                    help="import the package afresh in-process for every assertion instead of forking (slower)")
    args = ap.parse_args(argv)
    if args.no_fork:
        global FORK
        FORK = False
    try:
        report = run(args.packages.split(",") if args.packages else None, args.max_files, args.jobs,
                     log=lambda m: print(m, file=sys.stderr))
    except Unreachable as exc:
        print(f"REAL-WORLD CORPUS NOT RUN: {exc}", file=sys.stderr)
        return 2
    print(report["markdown"])
    print(f"\n{report['seconds']} s; report: {CACHE / 'report.json'}", file=sys.stderr)
    return 1 if report["rows"]["total"]["false_fails"] else 0


if __name__ == "__main__":
    sys.exit(main())
