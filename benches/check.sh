#!/usr/bin/env bash
# Benchmark of `bench-explorer check`: the whole bench, references and stubs (42 runs of both
# views), with --jobs 1 and with every core, in the sandbox (bubblewrap, the default) and with
# --no-sandbox. Prints the wall times (median of RUNS, default 3) and the sandbox's ratio.
#
#   bash benches/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
cargo build --quiet --release --bin bench-explorer
bin=${CARGO_TARGET_DIR:-target}/release/bench-explorer
cands=$(mktemp -d)
trap 'rm -rf "$cands"' EXIT
for folder in problems/*/; do
  slug=$(basename "$folder")
  mkdir -p "$cands/$slug"
  cp "$folder/solution.py" "$cands/$slug/solution.py"
  cp "$folder/stub.py" "$cands/$slug/stub.py"
done
cores=$(nproc)
once() {
  local start end
  start=$(date +%s.%N)
  "$bin" check problems --solutions "$cands" --json "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
median() { sort -n | sed -n "$(( (runs + 1) / 2 ))p"; }
pairs=$("$bin" check problems --solutions "$cands" --json 2>/dev/null | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["totals"]["pairs"], "runs, sandbox", ",".join(r["sandbox"]))')
echo "check: the bench, references and stubs ($pairs), median of $runs; load average $(cut -d' ' -f1 /proc/loadavg)"
# The two modes alternate run by run, so a change in the machine's load falls on both.
for jobs in 1 "$cores"; do
  bare=() boxed=()
  for _ in $(seq "$runs"); do
    bare+=("$(once --jobs "$jobs" --no-sandbox)")
    boxed+=("$(once --jobs "$jobs")")
  done
  b=$(printf '%s\n' "${bare[@]}" | median)
  s=$(printf '%s\n' "${boxed[@]}" | median)
  printf '  --jobs %s:  %.2f s --no-sandbox, %.2f s in the sandbox (x%.2f)\n' "$jobs" "$b" "$s" "$(echo "$s / $b" | bc -l)"
done
echo "load average afterwards $(cut -d' ' -f1 /proc/loadavg)"
