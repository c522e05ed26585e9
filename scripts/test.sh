#!/usr/bin/env bash
# Run every test of bench-explorer, installing what is missing first (scripts/setup.sh is idempotent).
#
#   bash scripts/test.sh          everything: Rust, wasm build, Python, Node, the page in Chromium
#   bash scripts/test.sh quick    Rust and Python only (no browser, no release wasm build)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}

bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "format and lints (natively, and the page's crate for wasm32)"
cargo fmt --all --check
cargo clippy --quiet --workspace --all-targets -- -D warnings
cargo clippy --quiet -p bench-explorer-web --target wasm32-unknown-unknown -- -D warnings

step "Rust: every crate's tests: unit tests, behaviour fixtures (insta), property and fuzz tests, the page's logic"
# In CI the fuzz tests replay one fixed seed, so a verdict does not depend on luck; locally they
# draw new cases each run (and `cargo test --test properties explore -- --ignored` explores more).
if [ -n "${CI:-}" ]; then
  export PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-20261122}
fi
INSTA_UPDATE=no cargo test --quiet --workspace

step "the patched unicode_names2 (crates/unicode-names) against the real crate: every name, alias, non-names"
# A workspace of its own (the real crate cannot be in the patched graph); its own target folder.
ref=crates/unicode-names/reference/Cargo.toml
cargo fmt --manifest-path "$ref" --check
CARGO_TARGET_DIR=target/reference cargo clippy --quiet --manifest-path "$ref" --all-targets -- -D warnings
CARGO_TARGET_DIR=target/reference cargo test --quiet --manifest-path "$ref"

step "the extractor library builds for wasm32 (without the toml feature, as the page uses it)"
cargo build --quiet -p bench-explorer --lib --no-default-features --target wasm32-unknown-unknown

step "Python: the bench (solutions, stubs, conventions) and the differential checks against pytest"
cargo build --quiet -p bench-explorer-cli --bin bench-explorer
python3 -m pytest tests/bench tests/python tests/review/test_review.py -q -p no:cacheprovider
step "Python: the real-world corpus (PyPI sdists at pinned hashes, cached in .cache/realworld/)"
bash scripts/realworld.sh
step "Python: the bench-style corpora (HumanEval's check(candidate) files, a unittest exercise track) against pytest"
bash scripts/corpora.sh

step "Node: the Pyodide worker's engine and client"
node --test tests/node/

if [ "$mode" = quick ]; then
  exit 0
fi

step "the page: release build, then end-to-end tests in Chromium"
bash scripts/serve.sh --build
if [ -d tests/e2e ]; then
  node --test --test-concurrency=1 tests/e2e/
fi
