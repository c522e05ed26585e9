#!/usr/bin/env bash
# Build the explorer page (release) and serve it on 127.0.0.1, installing what is missing first.
#
#   bash scripts/serve.sh            build, then serve dist/ on http://127.0.0.1:8080/
#   PORT=9000 bash scripts/serve.sh  another port
#   bash scripts/serve.sh --build    build only (dist/ is a static site: any host can serve it)
set -euo pipefail
cd "$(dirname "$0")/.."

PORT=${PORT:-8080}
log() { printf '\033[1m[serve]\033[0m %s\n' "$*" >&2; }

# The wasm target, trunk, wasm-bindgen-cli (at Cargo.lock's version), the npm packages
# (CodeMirror, esbuild, wasm-opt, Pyodide), and the Run tab's assets in www/vendor/ (Pyodide's
# core files and pytest's wheels, which the build copies).
bash scripts/setup.sh rust node wheels pyodide
export PATH="$PWD/node_modules/.bin:$HOME/.cargo/bin:$PATH"

# Trunk.toml builds offline: fetch the crates first (a no-op when they are there).
cargo fetch --target wasm32-unknown-unknown --locked >/dev/null 2>&1 || cargo fetch --target wasm32-unknown-unknown

# A target folder of its own, so the page's build does not wait on (or invalidate) native builds.
log "building the page (release; the first build takes several minutes)"
CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/web} trunk build --release

if [ "${1:-}" = "--build" ]; then
  log "built dist/"
  exit 0
fi
log "serving dist/ on http://127.0.0.1:$PORT/ (Ctrl-C stops)"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory dist
