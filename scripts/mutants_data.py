#!/usr/bin/env python3
"""Write www/mutants.json, the mutation scores the page's bench audit shows, from a real run.

    target/debug/bench-explorer check problems --mutants --jobs 2 --json > mutants-run.json
    python3 scripts/mutants_data.py mutants-run.json          # writes www/mutants.json
    python3 scripts/mutants_data.py mutants-run.json --mutant-timeout 5   # the run's limit, if not 2 s

The file holds, per problem, the CLI's `mutants.problems` figures, the ids of the survivors, and a
digest of the files that were measured (FNV-1a 64 of solution.py, a zero byte, the test file; the
page computes the same over its embedded bench and shows no figures measured on other files). It is
labelled with the command, the commit whose files and generator were measured, and the day.
tests/python/test_mutants_doc.py checks it against docs/mutants.md and the CLI's own output.
"""

from __future__ import annotations

import argparse
import datetime
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "www" / "mutants.json"
COMMAND = "bench-explorer check problems --mutants --json"
FIELDS = ("generated", "killed", "survived", "timeouts", "crashes", "differences")


def digest(solution: bytes, test: bytes) -> str:
    h = 0xCBF29CE484222325
    for b in solution + b"\0" + test:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def problem_digest(slug: str) -> str:
    d = ROOT / "problems" / slug
    return digest((d / "solution.py").read_bytes(), (d / f"test_{slug}.py").read_bytes())


def problem_entry(report: dict, slug: str) -> dict:
    """One problem's entry from the CLI's report: its reference solution's mutants."""
    (score,) = [s for s in report["mutants"]["problems"] if s["problem"] == slug]
    (pair,) = [p for p in report["pairs"] if p["problem"] == slug and p.get("mutants") is not None]
    survivors = [m["id"] for m in pair["mutants"] if m["outcome"] == "survived"]
    return {"problem": slug, "digest": problem_digest(slug), **{k: score[k] for k in FIELDS},
            "survivors": survivors}


def build(report: dict, commit: str, date: str, timeout_s: int) -> dict:
    slugs = sorted(s["problem"] for s in report["mutants"]["problems"])
    return {
        "command": COMMAND,
        "commit": commit,
        "date": date,
        "mutant_timeout_s": timeout_s,
        "problems": [problem_entry(report, s) for s in slugs],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("report", nargs="?", help="check --mutants --json output (default: stdin)")
    ap.add_argument("--mutant-timeout", type=int, default=2,
                    help="the run's --mutant-timeout in seconds (the CLI's default: 2)")
    args = ap.parse_args()
    report = json.loads(pathlib.Path(args.report).read_text() if args.report else sys.stdin.read())
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip()
    data = build(report, commit, datetime.date.today().isoformat(), args.mutant_timeout)
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    total = sum(p["killed"] for p in data["problems"]), sum(p["generated"] for p in data["problems"])
    print(f"wrote {OUT.relative_to(ROOT)}: {len(data['problems'])} problems, {total[0]}/{total[1]} killed")


if __name__ == "__main__":
    main()
