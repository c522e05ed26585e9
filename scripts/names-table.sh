#!/usr/bin/env bash
# Trunk's post-build hook (Trunk.toml): write the Unicode names table next to the page's wasm, as
# unicode-names-<hash>.bin. The page's wasm does not contain it (crates/unicode-names): the extraction
# worker fetches this file, from the page's own folder, only for a text that contains `\N`.
# Usage: TRUNK_STAGING_DIR=dir bash scripts/names-table.sh   (or: bash scripts/names-table.sh dir)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${TRUNK_STAGING_DIR:?TRUNK_STAGING_DIR is not set (run by trunk build, or give a folder)}}
# A native build of the table writer (the table is compiled into it); offline, as Trunk.toml builds.
cargo run --quiet --offline -p unicode_names2@1.3.1 --bin unicode-names-table -- "$out"
