#!/usr/bin/env bash
# Benchmark of `bench-explorer check`: the whole bench, references and stubs (42 runs of both
# views), with --jobs 1 and with every core. Prints the wall times (median of RUNS, default 3).
#
#   bash benches/check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
cargo build --quiet --release --bin bench-explorer
bin=target/release/bench-explorer
cands=$(mktemp -d)
trap 'rm -rf "$cands"' EXIT
for folder in problems/*/; do
  slug=$(basename "$folder")
  mkdir -p "$cands/$slug"
  cp "$folder/solution.py" "$cands/$slug/solution.py"
  cp "$folder/stub.py" "$cands/$slug/stub.py"
done
cores=$(nproc)
measure() {
  local jobs=$1 times=()
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s.%N)
    "$bin" check problems --solutions "$cands" --jobs "$jobs" --json >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}
pairs=$("$bin" check problems --solutions "$cands" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["totals"]["pairs"])')
echo "check: the bench, references and stubs ($pairs runs), median of $runs; load average $(cut -d' ' -f1 /proc/loadavg)"
printf '  --jobs 1:  %.2f s\n' "$(measure 1)"
printf '  --jobs %s:  %.2f s\n' "$cores" "$(measure "$cores")"
