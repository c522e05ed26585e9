#!/usr/bin/env bash
# The real-world corpus check: real packages' own pytest suites (PyPI sdists at pinned hashes, cached in
# .cache/realworld/) against the extractor's kept assertions. Extra arguments go to pytest.
#   bash scripts/realworld.sh                       the check, with its table
#   python3 tests/realworld/corpus.py --help        the same run as a command (table on stdout)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x target/debug/bench-explorer ] || cargo build --quiet --bin bench-explorer
python3 -m pytest tests/realworld -q -p no:cacheprovider -rs "$@"
