"""Shared helpers for the differential checks: extract with the CLI, run pytest and the contract's
evaluation in separate processes, make mutants, and judge every kept assertion against pytest.

A kept assertion LIES when it is
* a false fail: not truthy (false, raising or timing out) where pytest passed that assert (the test
  passed, or it failed later, at a line after this assert, which is a top-level statement of the test);
* a phantom pass: truthy where pytest failed that very assert, or failed the test (or its setup)
  before reaching it, or skipped or xfailed the test, or did not collect the test at all.

Besides the mutants, a case may be judged on its *capture candidate* (`capture_candidate`): the reference
plus wrong definitions of the builtins the test file names and the reference never uses, and a refusing
`__import__`, which only an evaluation that reads the test's names in the candidate's globals notices.
"""

from __future__ import annotations

import ast
import builtins
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("BENCH_EXPLORER_BIN", ROOT / "target" / "debug" / "bench-explorer"))
DRIVE = ROOT / "tests" / "python" / "drive.py"
PROBLEMS = sorted(p for p in (ROOT / "problems").iterdir() if (p / "solution.py").exists())
FIXTURES = sorted(p for p in (ROOT / "tests" / "fixtures").iterdir() if (p / "solution.py").exists())
EVAL_TIMEOUT = float(os.environ.get("FAITHFUL_EVAL_TIMEOUT", "3"))  # seconds per kept assertion
RUN_TIMEOUT = float(os.environ.get("FAITHFUL_RUN_TIMEOUT", "30"))  # seconds per pytest run (a mutant may loop forever)
AUTO_MUTANTS = int(os.environ.get("FAITHFUL_AUTO_MUTANTS", "4"))
WORKERS = int(os.environ.get("FAITHFUL_WORKERS", "2"))
CAPTURE_LABEL = "capture candidate"


# --------------------------------------------------------------------------- extraction


def test_file(folder: pathlib.Path) -> pathlib.Path:
    files = sorted(folder.glob("test_*.py"))
    assert files, f"no test_*.py in {folder}"
    return files[0]


def case_options(folder: pathlib.Path) -> dict:
    """CLI options for a problem (its slug) or a fixture (what its expect.toml sets)."""
    if folder.parent.name == "problems":
        return {"slug": folder.name, "solution_modules": []}
    expect = folder / "expect.toml"
    data = tomllib.loads(expect.read_text()) if expect.exists() else {}
    return {"slug": data.get("slug"), "solution_modules": data.get("solution_modules", [])}


def extract(test_path: pathlib.Path, stage: str = "full", slug: str | None = None,
            solution_modules: list[str] = ()) -> dict:
    args = [str(BIN), "extract", "--json", "--stage", stage, str(test_path)]
    if slug:
        args += ["--slug", slug]
    for m in solution_modules:
        args += ["--solution-module", m]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def kept(extraction: dict) -> list[dict]:
    return [a for a in extraction["assertions"] if a["status"] == "kept"]


def bindings_of(extraction: dict) -> list[dict] | None:
    """The namespace the extraction's kept expressions are evaluated in (contract version 2); None for a
    version 1 extraction (no `bindings`): the solution module's own globals."""
    return extraction.get("bindings")


# --------------------------------------------------------------------------- the two views


_PYTEST_CACHE: dict[tuple[str, str], dict | None] = {}


def run_pytest(folder: pathlib.Path, solution_source: str) -> dict | None:
    """Real pytest (memoized per folder and solution, so several stages share one run)."""
    key = (str(folder), solution_source)
    if key not in _PYTEST_CACHE:
        _PYTEST_CACHE[key] = _run_pytest(folder, solution_source)
    return _PYTEST_CACHE[key]


def _run_pytest(folder: pathlib.Path, solution_source: str) -> dict | None:
    """Real pytest on a copy of the whole folder (its conftest.py included), with this solution."""
    with tempfile.TemporaryDirectory(prefix="faithful-pytest-") as tmp:
        run_dir = pathlib.Path(tmp) / folder.name
        shutil.copytree(folder, run_dir, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        (run_dir / "solution.py").write_text(solution_source)
        # An empty pytest.ini stops pytest's search for a configuration above the copy, unless the
        # folder has its own (pytest.ini, or tox.ini / setup.cfg / pyproject.toml, which a pytest.ini
        # beside them would override).
        if not any((run_dir / name).exists() for name in ("pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml")):
            (run_dir / "pytest.ini").write_text("[pytest]\n")
        try:
            proc = subprocess.run(
                [sys.executable, str(DRIVE), "pytest", str(run_dir), test_file(folder).name],
                capture_output=True, text=True, timeout=RUN_TIMEOUT, cwd=run_dir,
            )
        except subprocess.TimeoutExpired:
            return None
    assert proc.returncode == 0, f"drive.py pytest crashed on {folder.name}: {proc.stderr[-2000:]}"
    return json.loads(proc.stdout)


def filters_of(extraction: dict) -> dict:
    """The extraction's warning filters and each kept check's own, and its logging (pytest's logging plugin as
    configured, and whether a conftest imports the solution), as drive.py's `eval` takes them."""
    return {
        "warning_filters": extraction.get("warning_filters") or [],
        "logging": extraction.get("logging"),
        "own_filters": [a.get("warning_filters") or [] for a in kept(extraction)],
    }


def run_evals(solution_source: str, exprs: list[str], folder: pathlib.Path | None = None,
              bindings: list[dict] | None = None, filters: dict | None = None) -> list[dict]:
    """The contract's evaluation of each expression, in a process of its own (never pytest's).

    The solution file sits in a copy of its folder (data files the solution opens next to its
    `__file__` are there), but nothing of the test file is loaded. `bindings` are the extraction's
    (see `bindings_of`): each expression's namespace is www/py/runner.py's `build_namespace`, and
    `filters` its warning filters (see `filters_of`), applied by runner.py's `evaluate_check`.
    """
    if not exprs:
        return []
    with tempfile.TemporaryDirectory(prefix="faithful-eval-") as tmp:
        run_dir = pathlib.Path(tmp) / (folder.name if folder else "solution")
        if folder is not None:
            shutil.copytree(folder, run_dir, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        else:
            run_dir.mkdir()
        sol = run_dir / "solution.py"
        sol.write_text(solution_source)
        path = pathlib.Path(tmp) / "eval.json"
        path.write_text(json.dumps({"exprs": exprs, "bindings": bindings, **(filters or {})}))
        try:
            proc = subprocess.run(
                [sys.executable, str(DRIVE), "eval", str(sol), str(path), str(EVAL_TIMEOUT)],
                capture_output=True, text=True, timeout=RUN_TIMEOUT + EVAL_TIMEOUT * len(exprs), cwd=run_dir,
            )
        except subprocess.TimeoutExpired:
            return [{"outcome": "timeout", "error": "evaluation process timed out", "phase": None}] * len(exprs)
    assert proc.returncode == 0, f"drive.py eval crashed: {proc.stderr[-2000:]}"
    return json.loads(proc.stdout)


def run_both(test_path: pathlib.Path, solution_source: str, extraction: dict, timeout: float = 60) -> dict | None:
    """pytest outcomes and kept-assertion outcomes for one solution (the stage story's view)."""
    result = run_pytest(test_path.parent, solution_source)
    if result is None:
        return None
    exprs = [a["expr"] for a in kept(extraction)]
    return {"pytest": result, "evals": run_evals(solution_source, exprs, test_path.parent, bindings_of(extraction),
                                                        filters_of(extraction))}


def kept_outcomes(extraction: dict, result: dict) -> list[tuple[dict, dict]]:
    return list(zip(kept(extraction), result["evals"], strict=True))


def pytest_outcomes(result: dict) -> dict[str, str]:
    return {t["name"]: t["outcome"] for t in result["pytest"]["tests"]}


# --------------------------------------------------------------------------- judging


def assert_spans(test_path: pathlib.Path) -> dict[int, tuple[int, bool]]:
    """Start line of every assert -> (end line, whether it is a top-level statement of a function)."""
    try:
        tree = ast.parse(test_path.read_text())
    except SyntaxError:
        return {}
    spans = {n.lineno: (n.end_lineno, False) for n in ast.walk(tree) if isinstance(n, ast.Assert)}
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for stmt in func.body:
                if isinstance(stmt, ast.Assert):
                    spans[stmt.lineno] = (stmt.end_lineno, True)
                elif _is_unittest_check(stmt):
                    # unittest's checks: `self.assertEqual(…)` and `with self.assertRaises(…):`
                    # (whose block is part of the check).
                    spans[stmt.lineno] = (stmt.end_lineno, True)
                elif isinstance(stmt, ast.For):
                    # An assert in a top-level loop (through nested loops): pytest passed it when the
                    # test failed after the whole loop ran; a failure inside the loop is not after it.
                    for inner in _loop_asserts(stmt):
                        spans[inner.lineno] = (stmt.end_lineno, True)
    return spans


def _is_unittest_check(stmt: ast.stmt) -> bool:
    def check_call(e) -> bool:
        return (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute)
                and isinstance(e.func.value, ast.Name) and e.func.value.id == "self"
                and e.func.attr.startswith(("assert", "fail")))
    if isinstance(stmt, ast.Expr):
        return check_call(stmt.value)
    if isinstance(stmt, ast.With):
        return any(check_call(i.context_expr) or pytest_block(i.context_expr) for i in stmt.items)
    return False


def pytest_block(e) -> bool:
    """`pytest.raises(…)`, `pytest.warns(…)`, `pytest.deprecated_call(…)` as a `with` context."""
    return (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute)
            and isinstance(e.func.value, ast.Name) and e.func.value.id == "pytest"
            and e.func.attr in ("raises", "warns", "deprecated_call"))


def _loop_asserts(loop: ast.For) -> list[ast.Assert]:
    out = []
    for stmt in loop.body:
        if isinstance(stmt, ast.Assert):
            out.append(stmt)
        elif isinstance(stmt, ast.For):
            out.extend(_loop_asserts(stmt))
    return out


def _first(text: str) -> str:
    return (text or "").strip().splitlines()[0][:200] if (text or "").strip() else ""


def _judge_in_helper(a: dict, t: dict, truthy: bool):
    """A kept assert of a helper the test calls (`check(f)`): the call is the entry's last folded
    origin. pytest passed the assert when the test failed after that call, or inside it at a later
    top-level line of the helper; it failed it when the helper's frame stopped at the assert."""
    calls = [o["span"]["line"] for o in a.get("origins", ()) if o["role"] == "folded"]
    call = max(calls) if calls else None
    f, inner = t["fail_line"], t.get("fail_inner")
    if call is None or f is None:
        return ("phantom pass", f"pytest failed the test: {_first(t['crash'])}") if truthy else None
    if f > call:
        return None if truthy else ("false fail", f"pytest passed this call and failed later at line {f}")
    if f < call:
        return ("phantom pass", f"pytest failed the test at line {f} before the call") if truthy else None
    if inner == a["line"]:
        return ("phantom pass", f"pytest fails this assert: {_first(t['crash'])}") if truthy else None
    if inner is not None and inner > a["line"]:
        return None if truthy else ("false fail", f"pytest passed this assert and failed later in the helper at line {inner}")
    return ("phantom pass", f"pytest failed the test in the call before reaching it (line {inner})") if truthy else None


def judge(extraction: dict, pytest_result: dict, evals: list[dict], spans: dict) -> list[dict]:
    """Every lie of the kept assertions, for one solution."""
    tests = {t["name"]: t for t in pytest_result["tests"]}
    lies = []
    for a, r in zip(kept(extraction), evals, strict=True):
        truthy = r["outcome"] == "pass"
        t = tests.get(a["test"])
        end, top = spans.get(a["line"], (a["line"], False))
        lie = None
        if t is None:
            # Not collected: when pytest collected nothing at all (the solution does not import),
            # no assertion can pass, and a failing one is right; otherwise the id is wrong.
            if pytest_result["tests"] or truthy:
                lie = ("phantom pass" if truthy else "false fail", "pytest does not collect this test")
        elif t["outcome"] in ("passed", "xpassed"):
            if not truthy:
                lie = ("false fail", f"pytest {t['outcome']} the test")
        elif t["outcome"] == "failed" and "helper-assertion" in a.get("shapes", ()):
            lie = _judge_in_helper(a, t, truthy)
        elif t["outcome"] == "failed":
            f = t["fail_line"]
            if f is not None and a["line"] <= f <= end:
                if truthy:
                    lie = ("phantom pass", f"pytest fails this assert: {_first(t['crash'])}")
            elif f is not None and end < f and top:
                if not truthy:
                    lie = ("false fail", f"pytest passed this assert and failed later at line {f}")
            elif truthy:
                where = f"at line {f} before reaching it" if f is not None else "(not at an assert of the test)"
                lie = ("phantom pass", f"pytest failed the test {where}: {_first(t['crash'])}")
        elif truthy:  # error (setup failed), skipped, xfailed
            lie = ("phantom pass", f"pytest reports the test {t['outcome']}: {_first(t['crash'])}")
        if lie:
            lies.append({
                "kind": lie[0], "detail": lie[1], "test": a["test"], "line": a["line"], "expr": a["expr"],
                "eval": r["outcome"], "error": r["error"],
            })
    return lies


# --------------------------------------------------------------------------- mutants


class _Mutator(ast.NodeTransformer):
    """Applies the `target`-th mutation among all candidate sites (counted in visiting order)."""

    SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
    SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv}

    def __init__(self, target: int):
        self.target = target
        self.seen = 0

    def _hit(self) -> bool:
        hit = self.seen == self.target
        self.seen += 1
        return hit

    def visit_Compare(self, node):
        self.generic_visit(node)
        if type(node.ops[0]) in self.SWAP_CMP and self._hit():
            node.ops[0] = self.SWAP_CMP[type(node.ops[0])]()
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if type(node.op) in self.SWAP_BIN and self._hit():
            node.op = self.SWAP_BIN[type(node.op)]()
        return node

    def visit_Constant(self, node):
        if type(node.value) is int and self._hit():
            return ast.copy_location(ast.Constant(node.value + 1), node)
        return node


def mutants(source: str, limit: int) -> list[str]:
    """Up to `limit` distinct single-point mutants, spread evenly over the candidate sites."""
    counter = _Mutator(-1)
    counter.visit(ast.parse(source))
    sites = counter.seen
    if sites == 0 or limit <= 0:
        return []
    step = max(1, sites // limit)
    out = []
    for target in range(0, sites, step)[:limit]:
        tree = _Mutator(target).visit(ast.parse(source))
        text = ast.unparse(ast.fix_missing_locations(tree))
        if text != source:
            out.append(text)
    return out


def _names_bound_or_read(source: str) -> set[str] | None:
    """Every identifier the source reads or binds (names, definitions, parameters, imports, `global`,
    exception and match targets); None if it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
    return names


def captured_names(test_source: str, reference_source: str) -> list[str]:
    """The names a capture candidate redefines: each builtin the test file names (an `ast.Name` of its
    source that is a key of `builtins.__dict__`, dunders aside) that the reference never reads or binds,
    so that the reference's own functions behave as before; then `__import__`, unless the reference
    spells it."""
    try:
        test_names = {n.id for n in ast.walk(ast.parse(test_source)) if isinstance(n, ast.Name)}
    except SyntaxError:
        test_names = set()
    used = _names_bound_or_read(reference_source)
    if used is None:
        return []
    names = sorted(n for n in test_names if n in vars(builtins) and not n.startswith("__") and n not in used)
    if "__import__" not in used:
        names.append("__import__")
    return names


def capture_candidate(folder: pathlib.Path) -> str | None:
    """The reference with wrong definitions of `captured_names` appended (issue 25), or None if there
    is none to add.

    A module-level `sorted` or `__import__` of the candidate changes nothing the test file does (its
    names are its own module's, or the builtins; an `import` statement uses the builtin `__import__`,
    never a global), except where the file star-imports the candidate, which then gives the test the
    wrong ones too. So pytest's verdicts are those of the reference unless the file lets the candidate
    in, and a kept expression gets them exactly only if it reads every name where the test read it:
    one that reads a name in the candidate's globals (version 1's namespace) or through the module is
    caught here, in both directions.
    """
    reference = (folder / "solution.py").read_text()
    names = captured_names(test_file(folder).read_text(), reference)
    if not names:
        return None
    parts = [reference.rstrip("\n"), "", "", "# The capture candidate: wrong definitions of the builtins the test file names."]
    for name in names:
        if name == "__import__":
            parts.append('def __import__(*args, **kwargs):\n    raise ImportError("captured")\n')
        else:
            parts.append(f'def {name}(*args, **kwargs):\n    return ["captured"]\n')
    return "\n".join(parts)


def variants(folder: pathlib.Path, auto: int = AUTO_MUTANTS, capture: bool = False) -> list[tuple[str, str]]:
    """(label, source): the reference, each hand-written mutant*.py, then the automatic mutants, then
    (with `capture`) the capture candidate, labelled CAPTURE_LABEL."""
    reference = (folder / "solution.py").read_text()
    out = [("solution.py", reference)]
    out += [(p.name, p.read_text()) for p in sorted(folder.glob("mutant*.py"))]
    out += [(f"auto-mutant-{i}", m) for i, m in enumerate(mutants(reference, auto))]
    if capture and (candidate := capture_candidate(folder)) is not None:
        out.append((CAPTURE_LABEL, candidate))
    return out


# --------------------------------------------------------------------------- one case


def measure(folder: pathlib.Path, stage: str = "full", auto: int = AUTO_MUTANTS, workers: int = WORKERS,
            capture: bool = False) -> dict:
    """Extraction, and for every variant of the solution (see `variants`): pytest, evaluations, lies."""
    path = test_file(folder)
    opts = case_options(folder)
    extraction = extract(path, stage, opts["slug"], opts["solution_modules"])
    exprs = [a["expr"] for a in kept(extraction)]
    spans = assert_spans(path)

    def one(variant):
        label, source = variant
        result = run_pytest(folder, source)
        evals = run_evals(source, exprs, folder, bindings_of(extraction), filters_of(extraction))
        return label, source, result, evals

    with ThreadPoolExecutor(max_workers=workers) as pool:
        runs = list(pool.map(one, variants(folder, auto, capture)))
    out = {"folder": folder, "test_path": path, "extraction": extraction, "kept": len(exprs), "runs": []}
    for label, source, result, evals in runs:
        run = {"label": label, "source": source, "pytest": result, "evals": evals, "lies": None}
        if result is not None:
            assert len(evals) == len(exprs), f"{folder.name} {label}: {len(exprs)} kept, {len(evals)} evaluations"
            run["lies"] = judge(extraction, result, evals, spans)
        out["runs"].append(run)
    return out


def describe(folder: pathlib.Path, label: str, lie: dict) -> str:
    return (f"{lie['kind']}: {folder.name} [{label}] {lie['test']} line {lie['line']}: `{lie['expr']}` "
            f"evaluates {lie['eval']}{' (' + lie['error'] + ')' if lie['error'] else ''}; {lie['detail']}")


def fixture_class(folder: pathlib.Path) -> str:
    """Class of a case for the summary: `problems`, `author_<class>`, or `older fixtures`."""
    if folder.parent.name == "problems":
        return "problems"
    parts = folder.name.split("_")
    if parts[0] == "author" and len(parts) > 1:
        return f"author_{parts[1]}"
    return "older fixtures"
