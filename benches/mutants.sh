#!/usr/bin/env bash
# Benchmark of `bench-explorer check --mutants`: every mutant of each bench problem's reference
# solution, both ways (real pytest and the extracted checks), with --jobs 2 in the sandbox, as
# docs/mutants.md reproduces it. Prints each run's wall time with the load average around it.
#
#   bash benches/mutants.sh                 # the current build (debug: the CLI only waits on Python)
#   BEFORE=/path/to/old/bench-explorer bash benches/mutants.sh
#
# With BEFORE, the two builds alternate run by run (a change in the machine's load falls on both),
# and their --json outputs must be identical once the timings (`wall_ms`) are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-2}
jobs=${JOBS:-2}
cargo build --quiet --bin bench-explorer
after=${CARGO_TARGET_DIR:-target}/debug/bench-explorer
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$after" "$out/after"  # a later build in the same folder does not change what is measured
once() {  # once LABEL BINARY RUN
  local start end l0 l1
  l0=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  "$2" check problems --mutants --jobs "$jobs" --json >"$out/$1-$3.json" 2>/dev/null || true
  end=$(date +%s.%N)
  l1=$(cut -d' ' -f1 /proc/loadavg)
  printf '  %-6s %6.1f s   load %s -> %s\n' "$1" "$(echo "$end - $start" | bc)" "$l0" "$l1"
}
echo "check problems --mutants --jobs $jobs, $(nproc) cores, $runs run(s) each"
for run in $(seq "$runs"); do
  if [ -n "${BEFORE:-}" ]; then once before "$BEFORE" "$run"; fi
  once after "$out/after" "$run"
done
python3 - "$out" <<'PY'
import json, pathlib, sys

def verdicts(path):
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k != "wall_ms"}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return strip(json.loads(path.read_text()))

files = sorted(pathlib.Path(sys.argv[1]).glob("*.json"))
first = verdicts(files[0])
m = first["mutants"]
print(f"  {m['killed']}/{m['generated']} killed ({m['timeouts']} by the time limit), {m['survived']} survived, "
      f"{m['differences']} differences between the views")

def outcomes(report):
    return {(p["problem"], m["id"]): (m["outcome"], m.get("difference")) for p in report["pairs"] for m in p["mutants"]}

same = True
for f in files[1:]:
    other = verdicts(f)
    if other == first:
        continue
    same = False
    a, b = outcomes(first), outcomes(other)
    changed = [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
    print(f"  {f.stem} differs from {files[0].stem}: {changed[:10] or 'outside the mutants'}")
    print("  (a mutant near the time limit can end either way on a loaded machine: --mutant-timeout)")
print("  every run's --json is identical but for wall_ms" if same else "  the runs' verdicts differ")
sys.exit(0 if same else 1)
PY
