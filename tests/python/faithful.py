"""Shared helpers for the differential checks: extract with the CLI, run both views, make mutants."""

from __future__ import annotations

import ast
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("BENCH_EXPLORER_BIN", ROOT / "target" / "debug" / "bench-explorer"))
DRIVE = ROOT / "tests" / "python" / "drive.py"


def extract(test_path: pathlib.Path, stage: str = "full", slug: str | None = None) -> dict:
    args = [str(BIN), "extract", "--json", "--stage", stage, str(test_path)]
    if slug:
        args += ["--slug", slug]
    proc = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout)


def run_both(test_path: pathlib.Path, solution_source: str, extraction: dict, timeout: float = 60) -> dict | None:
    """pytest outcomes and kept-assertion outcomes for one solution; None if it timed out."""
    with tempfile.TemporaryDirectory() as tmp:
        sol = pathlib.Path(tmp) / "solution.py"
        sol.write_text(solution_source)
        ext = pathlib.Path(tmp) / "extraction.json"
        ext.write_text(json.dumps(extraction))
        try:
            proc = subprocess.run(
                [sys.executable, str(DRIVE), str(test_path), str(sol), str(ext)],
                capture_output=True, text=True, timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return None
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def kept_outcomes(extraction: dict, result: dict) -> list[tuple[dict, dict]]:
    kept = [a for a in extraction["assertions"] if a["status"] == "kept"]
    return list(zip(kept, result["evals"]))


def pytest_outcomes(result: dict) -> dict[str, str]:
    return {t["name"]: t["outcome"] for t in result["pytest"]["tests"]}


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
    if sites == 0:
        return []
    step = max(1, sites // limit)
    out = []
    for target in range(0, sites, step)[:limit]:
        tree = _Mutator(target).visit(ast.parse(source))
        text = ast.unparse(ast.fix_missing_locations(tree))
        if text != source:
            out.append(text)
    return out
