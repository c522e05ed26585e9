#!/usr/bin/env bash
# Refresh docs/screenshot.png (the README's screenshot) from the release page, after a change meant to
# show in it. The e2e test compares the page with the committed image and fails when they differ.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/serve.sh --build
export PATH="$PWD/node_modules/.bin:$PATH"
UPDATE_SCREENSHOT=1 node --test --test-concurrency=1 --test-name-pattern="README screenshot" tests/e2e/page.test.mjs
git status --short docs/screenshot.png
