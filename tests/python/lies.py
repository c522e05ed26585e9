"""Count the lies of one extractor stage: false fails and phantom passes, per fixture class.

    python3 tests/python/lies.py [--stage STAGE] [--only PREFIX] [--auto N] [--verbose]

For every bench problem and every fixture with a `solution.py` (or only those whose name starts with
PREFIX), extracts at STAGE (`full`, `seven-shapes`, `six-shapes`, `as-written`), runs pytest and the
contract's evaluation for the reference, each hand-written `mutant*.py` and N automatic mutants, and
prints a table per class (the bench, `author_<class>` fixtures, the older fixtures) and totals.
Needs `target/debug/bench-explorer` (cargo build --bin bench-explorer).
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import faithful as fx  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", action="append", help="full, seven-shapes, six-shapes, as-written; repeatable")
    parser.add_argument("--only", default="", help="only cases whose folder name starts with this")
    parser.add_argument("--auto", type=int, default=fx.AUTO_MUTANTS, help="automatic mutants per solution")
    parser.add_argument("--verbose", action="store_true", help="print every lie")
    args = parser.parse_args()
    for stage in args.stage or ["full"]:
        table(stage, args)


def table(stage: str, args) -> None:

    cases = [p for p in fx.PROBLEMS + fx.FIXTURES if p.name.startswith(args.only)]
    rows: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for folder in cases:
        row = rows[fx.fixture_class(folder)]
        try:
            m = fx.measure(folder, stage, auto=args.auto)
        except Exception as exc:  # noqa: BLE001 - one broken case must not hide the others
            row["crashed"] += 1
            print(f"CRASHED {folder.name}: {exc}", file=sys.stderr)
            continue
        row["cases"] += 1
        row["kept"] += m["kept"]
        row["asserts"] += len(m["extraction"]["assertions"])
        for run in m["runs"]:
            side = "ref" if run["label"] == "solution.py" else "mut"
            if run["lies"] is None:
                row["timeouts"] += 1
                continue
            for lie in run["lies"]:
                row[f"{side} {lie['kind']}"] += 1
                if args.verbose:
                    print(fx.describe(folder, run["label"], lie), file=sys.stderr)

    cols = ["cases", "asserts", "kept", "ref false fail", "ref phantom pass", "mut false fail", "mut phantom pass"]
    heads = ["class", "cases", "asserts", "kept", "ref FF", "ref PP", "mut FF", "mut PP", "FF", "PP"]
    print(f"\nstage: {stage}   (FF false fails, PP phantom passes; ref = reference, mut = mutants)")
    print(" | ".join(f"{h:>8}" if i else f"{h:<22}" for i, h in enumerate(heads)))
    total = collections.Counter()
    for name in sorted(rows):
        row = rows[name]
        total.update(row)
        _print_row(name, row, cols)
    _print_row("TOTAL", total, cols)
    if total["crashed"] or total["timeouts"]:
        print(f"(cases crashed: {total['crashed']}; pytest runs timed out: {total['timeouts']})")


def _print_row(name, row, cols):
    ff = row["ref false fail"] + row["mut false fail"]
    pp = row["ref phantom pass"] + row["mut phantom pass"]
    cells = [f"{row[c]:>8}" for c in cols] + [f"{ff:>8}", f"{pp:>8}"]
    print(f"{name:<22} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
