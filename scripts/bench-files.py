#!/usr/bin/env python3
"""Trunk's post-build hook (Trunk.toml): write bench.json, the bench's files the page fetches on demand.

The page's wasm embeds each problem's slug, title and test file only (crates/web/build.rs): the editor
opens a test file at start-up, and a permalink names a problem. Its statement, the statement before
its hidden convention was written in, its stub, its reference solution and its meta.toml (as JSON) are
written here, for every folder of problems/ that build.rs embeds (a plain name with a
test_<slug>.py), and fetched from the page's own folder the first time a view needs them (the Problem,
Bench audit and Run tabs, a shape's figures for the bench). A file that is missing is null, and so is
a meta.toml that is not valid TOML (the page then shows no metadata for it, as before).

Usage: TRUNK_STAGING_DIR=dir python3 scripts/bench-files.py   (or: python3 scripts/bench-files.py dir)
"""

import json
import os
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "problems"
FILES = {
    "statement": "problem.md",
    "original_statement": "problem.original.md",
    "stub": "stub.py",
    "solution": "solution.py",
}


def read(path: Path):
    return path.read_text(encoding="utf-8") if path.is_file() else None


def meta(path: Path):
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("TRUNK_STAGING_DIR")
    if not out:
        sys.exit("TRUNK_STAGING_DIR is not set (run by trunk build, or give a folder)")
    problems = {}
    for d in sorted(ROOT.iterdir()):
        slug = d.name
        if not d.is_dir() or not re.fullmatch(r"[A-Za-z0-9_-]+", slug):
            continue
        if not (d / f"test_{slug}.py").is_file():
            continue
        entry = {field: read(d / name) for field, name in FILES.items()}
        entry["meta"] = meta(d / "meta.toml")
        problems[slug] = entry
    text = json.dumps({"problems": problems}, ensure_ascii=False, separators=(",", ":"), default=str)
    Path(out, "bench.json").write_text(text, encoding="utf-8")
    print(f"bench.json: {len(problems)} problems, {len(text.encode())} bytes")


if __name__ == "__main__":
    main()
