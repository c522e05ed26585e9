// The Unicode names table (crates/unicode-names) is not in the page's wasm: the extraction worker
// fetches it from the page's folder only for a text that contains `\N`. These tests check that such a
// text gives the CLI's extraction, that the table is asked for only then (and once), from the page's
// own origin and folder, and that a page that cannot load it says so at the errors it causes.
// Run: node --test --test-concurrency=1 tests/e2e/  (E2E_DIST, default dist/; the CLI is built with cargo)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSession, DIST, ROOT } from "./harness.mjs";

const NAMED = [
  "import pytest",
  "",
  "",
  '@pytest.mark.parametrize("s, n", [("\\N{DIGIT ONE}", 1), ("\\N{latin small letter a}", 2)], ids=["\\N{DIGIT ONE}", "b"])',
  "def test_param(s, n):",
  "    assert len(s) == 1",
  '    assert s in "1a"',
  "",
  "",
  "def test_names():",
  '    assert "\\N{DIGIT ONE}" == "1"',
  '    assert "\\N{EM DASH}" != "-"',
  '    assert "\\N{HANGUL SYLLABLE GA}\\N{CJK UNIFIED IDEOGRAPH-4E00}" == "\\uac00\\u4e00"',
  "",
].join("\n");

const PLAIN = "def test_plain():\n    assert 1 + 1 == 2\n";

const tableFile = readdirSync(DIST).find((f) => /^unicode-names-[0-9a-f]{8}\.bin$/.test(f));

/** What the CLI extracts from `text` (saved as test_scratch.py, the page's name for a pasted file). */
function cli(text) {
  const dir = mkdtempSync(path.join(tmpdir(), "names-e2e-"));
  const file = path.join(dir, "test_scratch.py");
  writeFileSync(file, text);
  const out = execFileSync(
    "cargo",
    ["run", "--quiet", "--offline", "-p", "bench-explorer-cli", "--bin", "bench-explorer", "--", "extract", "--json", file],
    { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 },
  );
  return JSON.parse(out);
}

/** The page's extraction of its current text, through its JSON download. */
async function pageJson(p) {
  const [download] = await Promise.all([p.page.waitForEvent("download"), p.tid("download-json").click()]);
  return JSON.parse(readFileSync(await download.path(), "utf8"));
}

const comparable = (e) => ({
  assertions: e.assertions.map(({ span, ...a }) => a),
  syntax_errors: e.syntax_errors ?? [],
});

async function scratch(p) {
  await p.tid("problem-picker").selectOption("__scratch__");
  await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
}

let session;
before(async () => {
  session = await startSession();
});
after(async () => {
  await session?.close();
});

test("the build writes the names table next to the wasm", () => {
  assert.ok(tableFile, `no unicode-names-<hash>.bin in ${DIST}`);
});

test('"\\N{DIGIT ONE}" in a parametrize id and in asserts: the page gives the CLI\'s extraction, and asks for the table only then', async () => {
  const p = await session.open({});
  try {
    const asked = () => session.server.requests.filter((r) => r.endsWith(".bin"));
    const before = asked().length;
    await scratch(p);
    await p.setText(PLAIN);
    assert.equal(asked().length, before, "the table was fetched for a text without \\N");

    await p.setText(NAMED);
    const fetched = asked().slice(before);
    assert.deepEqual(fetched, [`/${tableFile}`], "the table is fetched once, from the page's folder");
    const onPage = await pageJson(p);
    const fromCli = cli(NAMED);
    assert.equal(fromCli.syntax_errors?.length ?? 0, 0, JSON.stringify(fromCli.syntax_errors));
    assert.ok(fromCli.assertions.length >= 5);
    assert.ok(fromCli.assertions.some((a) => a.status === "kept"));
    assert.deepEqual(comparable(onPage), comparable(fromCli));
    // The parametrize id decoded from \N{DIGIT ONE}: the test ids carry "1".
    assert.ok(JSON.stringify(onPage).includes("test_param[1]"), "the id from \\N{DIGIT ONE}");

    // Loaded once: more edits with \N do not ask again.
    await p.setText(NAMED + "\n\ndef test_more():\n    assert '\\N{DIGIT TWO}' == '2'\n");
    assert.equal(asked().length, before + 1);
    // The compare view extracts on the page's own thread: the worker handed it the table, so it
    // keeps what the CLI keeps (without the table, every test here would have a syntax error).
    await p.tid("tab-compare").click();
    await p.tid("compare-view").waitFor();
    assert.equal(await p.tid("compare-right").inputValue(), "full");
    const kept = cli(NAMED + "\n\ndef test_more():\n    assert '\\N{DIGIT TWO}' == '2'\n").assertions.filter(
      (a) => a.status === "kept",
    ).length;
    assert.ok(kept >= 6);
    assert.equal(Number(await p.tid("compare-totals").getAttribute("data-right-kept")), kept);
    assert.equal(asked().length, before + 1);
    p.assertClean();
  } finally {
    await p.close();
  }
});

test("from a sub-folder, the table comes from that folder", async () => {
  const root = mkdtempSync(path.join(tmpdir(), "names-sub-"));
  mkdirSync(path.join(root, "sub"));
  writeFileSync(path.join(root, "index.html"), "<!doctype html><title>a host's own page</title>\n");
  for (const f of readdirSync(DIST)) symlinkSync(path.join(DIST, f), path.join(root, "sub", f));
  const s = await startSession({ dist: root });
  try {
    const p = await s.open({ path: "/sub/" });
    await scratch(p);
    await p.setText(NAMED);
    assert.deepEqual(
      s.server.requests.filter((r) => r.endsWith(".bin")),
      [`/sub/${tableFile}`],
    );
    const onPage = await pageJson(p);
    assert.equal(onPage.syntax_errors?.length ?? 0, 0);
    p.assertClean();
    await p.close();
  } finally {
    await s.close();
  }
});

test("without the table (a host that lost the file), the page says why at the errors it causes", async () => {
  const root = mkdtempSync(path.join(tmpdir(), "names-missing-"));
  for (const f of readdirSync(DIST)) if (f !== tableFile) symlinkSync(path.join(DIST, f), path.join(root, f));
  const s = await startSession({ dist: root });
  try {
    const p = await s.open({ allow: [/unicode-names-[0-9a-f]{8}\.bin/, /404/] });
    await scratch(p);
    await p.setText(NAMED);
    assert.deepEqual(s.server.requests.filter((r) => r.endsWith(".bin")), [`/${tableFile}`]);
    // Not a silent wrong result: the page says why, and so does each error the escapes cause.
    await p.tid("toast").filter({ hasText: "The Unicode names table" }).waitFor();
    const shown = await p.page.locator("body").innerText();
    assert.match(shown, /could not be loaded \(HTTP 404\)/);
    const onPage = await pageJson(p);
    const errors = onPage.syntax_errors ?? [];
    assert.ok(errors.length > 0, "no syntax error without the table");
    for (const e of errors) assert.match(e.message, /could not be loaded \(HTTP 404\)/);
    // The algorithmic names need no table: a file with only those parses.
    await p.setText('def test_ga():\n    assert "\\N{HANGUL SYLLABLE GA}" == "\\uac00"\n');
    assert.equal((await pageJson(p)).syntax_errors?.length ?? 0, 0);
    // Only the expected 404 of the table, nothing else.
    assert.deepEqual(
      p.problems.filter((x) => !/unicode-names-[0-9a-f]{8}\.bin|404/.test(x.text)),
      [],
    );
    await p.close();
  } finally {
    await s.close();
  }
});
