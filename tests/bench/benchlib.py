"""Helpers for checking the benchmark problems in problems/.

Everything here reads files and returns plain data, so the checks in
test_bench.py stay short and each helper can be tested on small inputs
(test_benchlib.py).
"""

from __future__ import annotations

import ast
import copy
import doctest
import functools
import os
import re
import subprocess
import sys
import tempfile
import tomllib
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBLEMS = ROOT / "problems"

SHAPE_IDS = (
    "variable-then-assert",
    "instance-with-side-effects",
    "parametrized-inputs",
    "slug-name-mismatch",
    "helper-assertion",
    "hidden-spec-rule",
    "stdlib-reference",
)

META_KEYS = ("title", "difficulty", "tags", "shapes", "note", "functions", "conventions")
DIFFICULTIES = ("easy", "medium", "hard")

# The loader every bench test file defines, character for character.
LOADER_SOURCE = '''def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module'''

LOADER = "_load_solution"


# --------------------------------------------------------------------------- files


def problem_slugs() -> list[str]:
    """Every problem folder, found by listing problems/ (not a fixed list)."""
    if not PROBLEMS.is_dir():
        return []
    return sorted(
        p.name
        for p in PROBLEMS.iterdir()
        if p.is_dir() and not p.name.startswith((".", "_"))
    )


def problem_dir(slug: str) -> Path:
    return PROBLEMS / slug


def tests_path(slug: str) -> Path:
    return problem_dir(slug) / f"test_{slug}.py"


def load_meta(slug: str) -> dict:
    with open(problem_dir(slug) / "meta.toml", "rb") as f:
        return tomllib.load(f)


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- conventions


def normalise(text: str) -> str:
    """Lower-case text and collapse every run of whitespace to one space."""
    return " ".join(text.lower().split())


def markdown_section(markdown: str, heading: str) -> str | None:
    """The body of the `## heading` section, up to the next heading of level 1 or 2."""
    lines = markdown.splitlines()
    start = None
    for i, line in enumerate(lines):
        if re.fullmatch(r"##\s+" + re.escape(heading) + r"\s*", line.strip(), re.IGNORECASE):
            start = i + 1
            break
    if start is None:
        return None
    body = []
    for line in lines[start:]:
        if re.match(r"#{1,2}\s", line):
            break
        body.append(line)
    return "\n".join(body)


def bullet_points(section: str) -> list[str]:
    """The items of a markdown bullet list, continuation lines joined on."""
    items: list[str] = []
    for line in section.splitlines():
        if re.match(r"\s*[-*]\s+", line):
            items.append(re.sub(r"^\s*[-*]\s+", "", line))
        elif items and line.strip():
            items[-1] += " " + line.strip()
    return items


def conventions_not_in_bullets(meta: dict, markdown: str) -> list[str]:
    """Conventions that are not inside one bullet of the `## Conventions` section."""
    section = markdown_section(markdown, "Conventions")
    bullets = [normalise(b) for b in bullet_points(section or "")]
    return [
        c for c in meta.get("conventions", [])
        if not any(normalise(c) in b for b in bullets)
    ]


def mentions(markdown: str, name: str) -> bool:
    """Whether name occurs in markdown as a whole identifier."""
    return re.search(r"(?<![\w.])" + re.escape(name) + r"(?!\w)", markdown) is not None


# --------------------------------------------------------------------------- meta


def meta_problems(meta: dict) -> list[str]:
    """Everything wrong with the form of a meta.toml table, as messages."""
    problems = []
    for key in META_KEYS:
        if key not in meta:
            problems.append(f"missing key {key!r}")
    for key in meta:
        if key not in META_KEYS:
            problems.append(f"unexpected key {key!r}")
    for key in ("title", "note"):
        if key in meta and (not isinstance(meta[key], str) or not meta[key].strip()):
            problems.append(f"{key} must be a non-empty string")
    if "difficulty" in meta and meta["difficulty"] not in DIFFICULTIES:
        problems.append(f"difficulty {meta['difficulty']!r} is not one of {DIFFICULTIES}")
    for key in ("tags", "shapes", "functions", "conventions"):
        value = meta.get(key)
        if key in meta and (
            not isinstance(value, list)
            or not value
            or not all(isinstance(v, str) and v.strip() for v in value)
        ):
            problems.append(f"{key} must be a non-empty list of non-empty strings")
    for shape in meta.get("shapes", []) if isinstance(meta.get("shapes"), list) else []:
        if shape not in SHAPE_IDS:
            problems.append(f"unknown shape id {shape!r}")
    for key in ("shapes", "functions", "conventions", "tags"):
        value = meta.get(key)
        if isinstance(value, list) and len(set(value)) != len(value):
            problems.append(f"{key} has duplicates")
    return problems


# --------------------------------------------------------------------------- source analysis


def top_level_names(source: str) -> set[str]:
    """Names of the functions and classes defined at the top of a module."""
    tree = ast.parse(source)
    return {
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    }


def _signature(fn: ast.FunctionDef) -> str:
    """A function's parameter list and return annotation, without its body."""
    bare = copy.copy(fn)
    bare.body = [ast.Pass()]
    bare.decorator_list = []
    return ast.unparse(bare).splitlines()[0]


def public_signatures(source: str) -> dict[str, str]:
    """{'f': 'def f(a, b) -> int:', 'Cls.m': ...} for public top-level functions and methods."""
    tree = ast.parse(source)
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            out[node.name] = _signature(node)
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            out[node.name] = f"class {node.name}"
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and (
                    not item.name.startswith("_") or item.name == "__init__"
                ):
                    out[f"{node.name}.{item.name}"] = _signature(item)
    return out


def _is_not_implemented_body(fn: ast.FunctionDef) -> bool:
    body = fn.body
    has_docstring = (
        bool(body)
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )
    if not has_docstring:
        return False
    rest = body[1:]
    if len(rest) != 1 or not isinstance(rest[0], ast.Raise):
        return False
    exc = rest[0].exc
    if isinstance(exc, ast.Call):
        exc = exc.func
    return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"


def stub_defects(source: str) -> list[str]:
    """Stub functions/methods that are not just a docstring and `raise NotImplementedError`.

    Classes must have a docstring too. Anything else at the top of the stub
    (imports, constants) is reported as well: a stub carries no logic.
    """
    tree = ast.parse(source)
    defects = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            if not _is_not_implemented_body(node):
                defects.append(node.name)
        elif isinstance(node, ast.ClassDef):
            if ast.get_docstring(node) is None:
                defects.append(f"{node.name} (no docstring)")
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not _is_not_implemented_body(item):
                    defects.append(f"{node.name}.{item.name}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            continue  # typing imports are harmless
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # module docstring
        else:
            defects.append(f"line {node.lineno}: {type(node).__name__}")
    return defects


def imported_modules(source: str) -> set[str]:
    """Top-level package names a module imports."""
    tree = ast.parse(source)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def loader_source(test_source: str) -> str | None:
    """The source text of the test file's _load_solution function, if any."""
    tree = ast.parse(test_source)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == LOADER:
            return ast.get_source_segment(test_source, node)
    return None


def _is_loader_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == LOADER
    )


def _module_aliases(tree: ast.AST) -> set[str]:
    """Names bound anywhere to `_load_solution()` itself (sol = _load_solution())."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and _is_loader_call(node.value):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def _is_solution_module(node: ast.AST, aliases: set[str]) -> bool:
    return _is_loader_call(node) or (isinstance(node, ast.Name) and node.id in aliases)


def solution_names_called(test_source: str) -> set[str]:
    """Names the test file takes from the solution module.

    Counts `_load_solution().f`, and `m.f` where m was bound to `_load_solution()`.
    """
    tree = ast.parse(test_source)
    aliases = _module_aliases(tree)
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and _is_solution_module(node.value, aliases)
    }


def _solution_bound_names(tree: ast.Module) -> set[str]:
    """Module-level names that hold the solution module or something taken from it."""
    aliases = _module_aliases(tree)
    bound = set(aliases)
    for node in tree.body:
        if isinstance(node, ast.Assign):
            value = node.value
            if isinstance(value, ast.Attribute) and _is_solution_module(value.value, bound):
                bound.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return bound


@dataclass
class PytestFunction:
    qualname: str  # as pytest prints it without the file: test_x or TestA::test_x
    node: ast.FunctionDef
    decorators: list[ast.expr]


def pytest_functions(tree: ast.Module) -> list[PytestFunction]:
    """The functions pytest would collect as tests, in source order."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            found.append(PytestFunction(node.name, node, list(node.decorator_list)))
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name.startswith("test"):
                    found.append(
                        PytestFunction(
                            f"{node.name}::{item.name}", item,
                            list(node.decorator_list) + list(item.decorator_list),
                        )
                    )
    return found


def helper_assert_lines(test_source: str) -> list[int]:
    """Lines of asserts that are not inside a test function (module level or helpers)."""
    tree = ast.parse(test_source)
    inside_tests = set()
    for test in pytest_functions(tree):
        inside_tests.update(id(n) for n in ast.walk(test.node))
    return sorted(
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Assert) and id(node) not in inside_tests
    )


def asserts_by_test(test_source: str) -> dict[str, int]:
    """{qualname: number of assert statements} for every test function."""
    tree = ast.parse(test_source)
    return {
        t.qualname: sum(isinstance(n, ast.Assert) for n in ast.walk(t.node))
        for t in pytest_functions(tree)
    }


def _names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _local_assignments(fn: ast.FunctionDef) -> dict[str, set[str]]:
    """{local name: names used in any expression assigned to it} within fn.

    Covers `x = ...`, `x: T = ...`, `x += ...` and tuple targets such as
    `cost, path = ...`. Loop variables and comprehension variables are not
    included.
    """
    assigned: dict[str, set[str]] = {}

    def bind(target: ast.AST, value_names: set[str]) -> None:
        if isinstance(target, ast.Name):
            assigned.setdefault(target.id, set()).update(value_names)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                bind(element, value_names)
        elif isinstance(target, ast.Starred):
            bind(target.value, value_names)

    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            names = _names_in(node.value)
            for target in node.targets:
                bind(target, names)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            bind(node.target, _names_in(node.value))
    return assigned


def _expand(names: set[str], assigned: dict[str, set[str]]) -> set[str]:
    """names plus every name reachable through local assignments (inlining, roughly)."""
    seen = set(names)
    todo = list(names)
    while todo:
        name = todo.pop()
        for used in assigned.get(name, ()):
            if used not in seen:
                seen.add(used)
                todo.append(used)
    return seen


def is_parametrize(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr == "parametrize"


def asserts_not_touching_solution(test_source: str) -> list[int]:
    """Lines of test asserts that never reach the solution module.

    An assert reaches it when its names, followed through the test's local
    assignments, include `_load_solution()`, a name bound to the module, or
    a module-level name taken from it (`f = _load_solution().f`).
    """
    tree = ast.parse(test_source)
    reaching = _solution_bound_names(tree) | _module_aliases(tree) | {LOADER}
    bad = []
    for test in pytest_functions(tree):
        assigned = _local_assignments(test.node)
        for node in ast.walk(test.node):
            if isinstance(node, ast.Assert):
                if not _expand(_names_in(node.test), assigned) & reaching:
                    bad.append(node.lineno)
    return sorted(bad)


# --------------------------------------------------------------------------- examples


def code_blocks(markdown: str) -> list[str]:
    """Contents of the fenced ``` code blocks in markdown."""
    return re.findall(r"^```[^\n]*\n(.*?)^```", markdown, flags=re.DOTALL | re.MULTILINE)


def solution_namespace(solution_source: str) -> dict:
    namespace: dict = {"__name__": "solution"}
    exec(compile(solution_source, "solution.py", "exec"), namespace)
    return namespace


def example_failures(markdown: str, solution_source: str) -> tuple[int, int, str]:
    """Run the `>>>` examples of a statement against the solution.

    Returns (examples tried, examples failed, doctest's report).
    """
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    tried = failed = 0
    for i, block in enumerate(code_blocks(markdown)):
        if ">>>" not in block:
            continue
        test = parser.get_doctest(
            block, solution_namespace(solution_source), f"block{i}", "problem.md", 0
        )
        result = runner.run(test, out=report.append)
        tried += result.attempted
        failed += result.failed
    return tried, failed, "".join(report)


# --------------------------------------------------------------------------- running pytest


@dataclass(frozen=True)
class Run:
    returncode: int
    outcomes: tuple[tuple[str, str, str], ...]  # (node id without file, outcome, message)
    output: str

    def with_outcome(self, outcome: str) -> list[str]:
        return [node for node, o, _ in self.outcomes if o == outcome]


def parse_junit(xml_text: str) -> list[tuple[str, str, str]]:
    """[(node id without the file part, outcome, message)] from a pytest --junitxml report.

    outcome is passed, failed, error, skipped (skip or xfail).
    """
    root = ET.fromstring(xml_text)
    out = []
    for case in root.iter("testcase"):
        classname = case.get("classname", "")
        name = case.get("name", "")
        parts = classname.split(".")
        classes = [p for p in parts if p.startswith("Test")]
        node = "::".join(classes + [name])
        outcome, message = "passed", ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed", "error": "error", "skipped": "skipped"}[child.tag]
                message = child.get("message", "") or (child.text or "")
                break
        out.append((node, outcome, message))
    return out


def run_pytest(test_path: Path, solution_path: Path) -> Run:
    """Run a bench test file with solution_path copied beside it as solution.py."""
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        work = Path(tmp)
        (work / test_path.name).write_bytes(test_path.read_bytes())
        (work / "solution.py").write_bytes(solution_path.read_bytes())
        report = work / "report.xml"
        env = {
            k: v for k, v in os.environ.items()
            if k not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTHONPATH")
        }
        env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        proc = subprocess.run(
            [
                sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                "-rA", f"--junitxml={report}", test_path.name,
            ],
            cwd=work, env=env, capture_output=True, text=True, timeout=300,
        )
        outcomes = parse_junit(report.read_text()) if report.exists() else []
        return Run(proc.returncode, tuple(outcomes), proc.stdout + proc.stderr)


@functools.cache
def run_with(slug: str, which: str) -> Run:
    """Run the problem's tests against `solution.py` or `stub.py` (cached per session)."""
    return run_pytest(tests_path(slug), problem_dir(slug) / which)


def kept_assert_count(test_source: str, run: Run) -> int:
    """Asserts that pytest actually ran to a pass: each passing case times its asserts."""
    per_test = asserts_by_test(test_source)
    total = 0
    for node in run.with_outcome("passed"):
        base = node.split("[", 1)[0]
        total += per_test[base]
    return total
