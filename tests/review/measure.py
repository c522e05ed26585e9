"""Judge every outside-review case against real pytest (not run by CI: these are known open lies).

    python3 tests/review/measure.py [name ...]

Prints, per case, the kept assertions and every lie (false fail / phantom pass) on the solution and
its hand-written mutants, then the totals; NOTES.md says which classes of lie each case shows.
"""

import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "python"))

import faithful as fx  # noqa: E402

names = set(sys.argv[1:])
cases = sorted(p for p in HERE.iterdir() if p.is_dir() and (p / "solution.py").exists() and (not names or p.name in names))
kept = lies = lying_cases = 0
for folder in cases:
    m = fx.measure(folder, "full", auto=0)
    found = [fx.describe(folder, run["label"], lie) for run in m["runs"] for lie in run["lies"] or []]
    kept += m["kept"]
    lies += len(found)
    lying_cases += bool(found)
    print(f"{folder.name}: {m['kept']} kept, {len(found)} lies")
    for line in found:
        print(f"    {line}")
print(f"\n{len(cases)} cases, {kept} kept, {lies} lies in {lying_cases} cases")
