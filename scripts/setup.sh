#!/usr/bin/env bash
# Idempotent set-up of everything bench-explorer needs on a fresh Debian machine.
# Each step checks what is already there (at the right version) and skips it.
#
#   scripts/setup.sh            everything
#   scripts/setup.sh rust       wasm target, trunk, wasm-bindgen-cli (version from Cargo.lock)
#   scripts/setup.sh node       npm packages (editor, bundler, wasm-opt, pyodide, playwright-core)
#   scripts/setup.sh python     host pytest and jsonschema (for the native end-to-end checks)
#   scripts/setup.sh wheels     pytest wheels for Pyodide, from PyPI, into www/vendor/wheels
#   scripts/setup.sh pyodide    Pyodide's core files into www/vendor/pyodide, and www/vendor/wheels/index.json
#   scripts/setup.sh browser    Debian's chromium + chromedriver (end-to-end tests)
#   scripts/setup.sh sandbox    Debian's bubblewrap (`check` runs every candidate under bwrap)
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
PYTEST_WHEELS=(pytest==9.0.2 pluggy==1.6.0 iniconfig==2.3.0 packaging==26.1 pygments==2.20.0)

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
have() { command -v "$1" >/dev/null 2>&1; }
export PATH="$HOME/.cargo/bin:$PATH"

step_rust() {
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    log "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
  if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
    log "installing trunk $TRUNK_VERSION (several minutes)"
    cargo install trunk --locked --version "$TRUNK_VERSION"
  fi
  # wasm-bindgen-cli must equal the wasm-bindgen that Cargo.lock pins, exactly.
  local want
  want=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    log "installing wasm-bindgen-cli $want"
    # Not --locked: a crate version pinned by its lockfile is missing from the registry.
    cargo install wasm-bindgen-cli --version "$want"
  fi
}

step_node() {
  if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "installing npm packages"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

step_python() {
  # The same pytest as the page's Pyodide wheels: ids and outcomes must agree on both sides.
  if [ "$(python3 -c 'import pytest; print(pytest.__version__)' 2>/dev/null)" != "9.0.2" ]; then
    log "installing pytest 9.0.2 for the host python"
    python3 -m pip install --quiet 'pytest==9.0.2'
  fi
  if ! python3 -c 'import jsonschema' 2>/dev/null; then
    log "installing jsonschema for the host python (tests/python/test_contract.py)"
    python3 -m pip install --quiet 'jsonschema>=4'
  fi
}

step_wheels() {
  local dir=www/vendor/wheels missing=0 spec
  mkdir -p "$dir"
  for spec in "${PYTEST_WHEELS[@]}"; do
    local name=${spec%%==*} ver=${spec##*==}
    ls "$dir"/"${name}"-"${ver}"-*.whl >/dev/null 2>&1 || missing=1
  done
  if [ "$missing" = 1 ]; then
    log "downloading pytest wheels for Pyodide"
    python3 -m pip download --quiet --only-binary=:all: --no-deps --python-version 3.14 \
      --implementation py --abi none --platform any -d "$dir" "${PYTEST_WHEELS[@]}"
  fi
}

# The page serves Pyodide from its own origin: copy the five core files out of the
# npm package (not the rest of it), and list the wheels for the worker in
# www/vendor/wheels/index.json so that it need not know their versions. Runs after
# `node` (the npm package) and `wheels` (the wheels it lists).
PYODIDE_CORE=(pyodide.mjs pyodide.asm.mjs pyodide.asm.wasm python_stdlib.zip pyodide-lock.json)
step_pyodide() {
  local src=node_modules/pyodide dst=www/vendor/pyodide f
  mkdir -p "$dst"
  for f in "${PYODIDE_CORE[@]}"; do
    [ -f "$src/$f" ] || { log "missing $src/$f: run scripts/setup.sh node"; return 1; }
    if [ ! -f "$dst/$f" ] || [ "$src/$f" -nt "$dst/$f" ]; then
      log "copying $f into $dst"
      cp -p "$src/$f" "$dst/$f"
    fi
  done
  local wheels=www/vendor/wheels
  if compgen -G "$wheels/*.whl" >/dev/null; then
    (cd "$wheels" && ls -1 -- *.whl) | python3 -c '
import json, sys
names = sorted(line.strip() for line in sys.stdin if line.strip())
print(json.dumps({"wheels": names}, indent=1))' >"$wheels/index.json.tmp"
    if cmp -s "$wheels/index.json.tmp" "$wheels/index.json"; then
      rm "$wheels/index.json.tmp"
    else
      log "writing $wheels/index.json"
      mv "$wheels/index.json.tmp" "$wheels/index.json"
    fi
  else
    log "no wheels in $wheels yet: run scripts/setup.sh wheels pyodide"
  fi
}

step_browser() {
  if ! have chromium || ! have chromedriver; then
    log "installing Debian's chromium and chromedriver"
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
  fi
}

step_sandbox() {
  # `bench-explorer check` refuses to run candidates unconfined unless told --no-sandbox.
  [ "$(uname -s)" = Linux ] || return 0
  if ! have bwrap; then
    log "installing Debian's bubblewrap (the sandbox of bench-explorer check)"
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends bubblewrap >/dev/null
  fi
}

steps=("$@"); [ ${#steps[@]} -gt 0 ] || steps=(python sandbox rust node wheels pyodide browser)
for s in "${steps[@]}"; do "step_$s"; done
