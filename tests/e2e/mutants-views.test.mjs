// Issue 27's remaining page items, in Debian's Chromium:
//   - the bench audit shows each problem's mutation score: the figures `check --mutants` measured
//     (www/mutants.json, which must equal docs/mutants.md's table), replaced by the page's own once
//     the whole bench runs with mutants on the page;
//   - in the Mutants view a survivor is shown beside the solution (its changed lines highlighted) and
//     a killed mutant names the tests and checks that kill it;
//   - the view link and the permalink keep the Run tab's Mutants mode and the picked mutant;
//   - results of an earlier mutation run are flagged stale once the file or the solution changes.
//
// Run: node --test --test-concurrency=1 tests/e2e/mutants-views.test.mjs  (after `bash
// scripts/serve.sh --build`; E2E_DIST, default dist/)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { readFileSync } from "node:fs";
import { startSession, ROOT } from "./harness.mjs";

const PY_TIMEOUT = 120_000;
const RUN_TIMEOUT = 300_000;

let session;
let p;

before(async () => {
  session = await startSession();
  p = await session.open();
});

after(async () => {
  await p?.close();
  await session?.close();
});

/** docs/mutants.md: its table (slug → figures), its total, and its survivors' sections. */
function docs() {
  const text = readFileSync(path.join(ROOT, "docs", "mutants.md"), "utf8");
  const rows = {};
  for (const m of text.matchAll(/^\| ([a-z_]+) \| (\d+)\/(\d+) \| \d+% \| (\d+) \| \d+ \| \d+ \| (\d+) \|$/gm)) {
    rows[m[1]] = { killed: +m[2], generated: +m[3], survived: +m[4], timeouts: +m[5] };
  }
  const total = text.match(/^\| \*\*bench\*\* \| \*\*(\d+)\/(\d+)\*\*/m);
  const sections = [...text.matchAll(/^### (\w+) (m\d{3})\n\nOperator `([a-z-]+)`, line (\d+): [^\n]*\n\n```diff\n@@ line \d+ @@\n-([^\n]*)\n\+([^\n]*)\n/gm)].map((m) => ({
    problem: m[1], id: m[2], operator: m[3], line: +m[4], old: m[5], new: m[6],
  }));
  return { rows, total: { killed: +total[1], generated: +total[2] }, sections };
}

const solutionLines = (slug) => readFileSync(path.join(ROOT, "problems", slug, "solution.py"), "utf8").split("\n");

async function waitPython(page = p) {
  await page.page.waitForFunction(() => window.__benchExplorer.pyState === "ready", null, { timeout: PY_TIMEOUT });
}

async function openMutants(slug) {
  await p.tid("problem-picker").selectOption(slug);
  await p.page.waitForFunction((f) => window.__benchExplorer.currentFile === f, `test_${slug}.py`);
  await p.tid("tab-run").click();
  await p.tid("run-mode-mutants").check();
  await p.tid("mutants-view").waitFor();
  await p.tid("run-solution-select").selectOption("reference");
  await waitPython();
}

async function runMutants() {
  const before = (await p.hook("mutantRuns")) || 0;
  await p.tid("mutants-run-button").click();
  await p.page.waitForFunction((n) => (window.__benchExplorer.mutantRuns || 0) > n, before, { timeout: RUN_TIMEOUT });
  return p.hook("lastMutantRun");
}

/** The beside view under `root`: its rows as {line, changed, solution, mutant}. */
async function besideRows(root) {
  return root.locator("[data-testid='mutant-beside-line']").evaluateAll((rows) =>
    rows.map((r) => ({
      line: r.dataset.line,
      changed: r.dataset.changed === "true",
      solution: r.querySelector("td.sol").textContent,
      mutant: r.querySelector("td.mut").textContent,
    })),
  );
}

test("the bench audit shows each problem's mutation score as check --mutants measured it (docs/mutants.md's table)", async () => {
  const d = docs();
  await p.tid("tab-audit").click();
  await p.tid("audit-table").waitFor();
  await p.page.waitForFunction(() => document.querySelector("[data-testid='audit-mutants-source']")?.dataset.source === "committed");
  const cells = await p.page.$$eval("[data-testid='audit-row']", (rows) =>
    rows.map((r) => {
      const c = r.querySelector("[data-testid='audit-mutants']");
      return { slug: r.dataset.slug, source: c.dataset.source, killed: +c.dataset.killed, generated: +c.dataset.generated, survived: +c.dataset.survived, text: c.innerText };
    }),
  );
  assert.equal(cells.length, Object.keys(d.rows).length, "a score for every problem of the table");
  for (const c of cells) {
    const row = d.rows[c.slug];
    assert.ok(row, `docs/mutants.md has ${c.slug}`);
    assert.equal(c.source, "committed", c.slug);
    assert.deepEqual([c.killed, c.generated, c.survived], [row.killed, row.generated, row.survived], c.slug);
    assert.match(c.text, new RegExp(`^${row.killed}/${row.generated}`));
    assert.match(c.text, new RegExp(`${row.survived} surv`));
  }
  const total = p.tid("audit-mutants-total");
  assert.equal(await total.getAttribute("data-killed"), String(d.total.killed));
  assert.equal(await total.getAttribute("data-generated"), String(d.total.generated));
  // Labelled: measured by check --mutants, at a commit.
  const note = await p.tid("audit-mutants-source").innerText();
  assert.match(note, /measured by `bench-explorer check problems --mutants --json` at commit [0-9a-f]{7,}/);
  await p.shot("audit-mutants");
  p.assertClean();
});

test("the whole bench run with mutants on the page replaces a problem's measured score with its own", async () => {
  const slug = "merge_intervals";
  const d = docs();
  await p.tid("tab-run").click();
  await p.tid("run-mode-bench").check();
  await p.tid("bench-run").waitFor();
  await waitPython();
  await p.tid("run-timeout").fill("2");
  await p.tid("bench-stage-select").selectOption("full");
  await p.tid("bench-with-mutants").check();
  await p.page.evaluate((s) => { window.__benchExplorer.benchMutantProblems = s; }, [slug]);
  const before = (await p.hook("benchRuns")) || 0;
  await p.tid("bench-run-button").click();
  await p.page.waitForFunction((n) => (window.__benchExplorer.benchRuns || 0) > n, before, { timeout: RUN_TIMEOUT });
  const report = await p.hook("lastBenchRun");
  const mine = report.mutants.problems.find((r) => r.problem === slug);
  await p.tid("tab-audit").click();
  await p.tid("audit-table").waitFor();
  const cell = p.page.locator(`[data-testid='audit-row'][data-slug='${slug}'] [data-testid='audit-mutants']`);
  assert.equal(await cell.getAttribute("data-source"), "page");
  assert.equal(await cell.getAttribute("data-killed"), String(mine.killed));
  assert.equal(await cell.getAttribute("data-generated"), String(mine.generated));
  // The page's run agrees with the measurement it replaces.
  assert.deepEqual([mine.killed, mine.generated], [d.rows[slug].killed, d.rows[slug].generated]);
  // The other problems keep the measured figures, and the note says the two mix.
  const other = p.page.locator("[data-testid='audit-row'][data-slug='coin_change'] [data-testid='audit-mutants']");
  assert.equal(await other.getAttribute("data-source"), "committed");
  assert.equal(await p.tid("audit-mutants-source").getAttribute("data-source"), "mixed");
  assert.match(await p.tid("audit-mutants-source").innerText(), /page's own run covered/);
  await p.page.evaluate(() => { delete window.__benchExplorer.benchMutantProblems; });
  await p.tid("tab-run").click();
  await p.tid("bench-with-mutants").uncheck();
  await p.tid("run-timeout").fill("5");
  p.assertClean();
});

test("a survivor is shown beside the solution, its changed line highlighted; a killed mutant names its killers", async () => {
  const slug = "merge_intervals";
  const lines = solutionLines(slug);
  const documented = docs().sections.filter((s) => s.problem === slug);
  await openMutants(slug);
  const report = await runMutants();
  assert.equal(report.status, "done");
  assert.deepEqual(report.survivors, documented.map((s) => s.id));
  for (const s of documented) {
    const row = p.page.locator(`[data-section='survived'] [data-testid='mutant-row'][data-id='${s.id}']`);
    const rows = await besideRows(row);
    const changed = rows.filter((r) => r.changed);
    assert.equal(changed.length, 1, `${s.id}: one changed line`);
    assert.equal(changed[0].line, String(s.line), `${s.id}: the changed line is the diff's`);
    // The solution's column is the solution's text; the mutant's, the documented change.
    assert.equal(changed[0].solution, lines[s.line - 1]);
    assert.equal(changed[0].solution, s.old);
    assert.equal(changed[0].mutant, s.new);
    for (const r of rows.filter((r) => !r.changed)) {
      assert.equal(r.solution, lines[+r.line - 1]);
      assert.equal(r.mutant, r.solution);
    }
    assert.ok(rows.length > 1, "with lines around it");
  }
  // Every killed mutant's row says, without opening it, what killed it: the tests pytest fails
  // (the kill matrix's column) or the time limit.
  const killed = await p.page.$$eval("[data-section='killed'] [data-testid='mutant-row']", (rows) =>
    rows.map((r) => ({
      id: r.dataset.id,
      outcome: r.dataset.outcome,
      words: r.querySelector("[data-testid='mutant-killers']")?.innerText || "",
      tests: [...r.querySelectorAll("[data-testid='mutant-test']")].map((t) => t.textContent),
      checks: [...r.querySelectorAll("[data-testid='mutant-check']")].map((c) => `L${c.dataset.line}`),
    })),
  );
  assert.equal(killed.length, report.killed);
  for (const k of killed) {
    if (k.outcome === "timeout") {
      assert.match(k.words, /time limit/);
      continue;
    }
    if (k.outcome !== "killed") {
      assert.ok(k.words, `${k.id} says how it ended`);
      continue;
    }
    assert.ok(k.tests.length > 0, `${k.id}: pytest fails some test`);
    assert.ok(k.words.includes(`pytest fails ${k.tests[0]}`), `${k.id}: ${k.words}`);
    const lines = [...new Set(k.checks.map((c) => +c.slice(1)))].sort((a, b) => a - b).slice(0, 6);
    for (const l of lines) assert.ok(k.words.includes(`L${l}`), `${k.id}: L${l} in ${k.words}`);
  }
  // Picking a killed mutant shows it beside the solution with its killers, and the address bar
  // keeps it.
  const first = killed.find((k) => k.outcome === "killed");
  await p.page.locator(`[data-testid='mutant-row'][data-id='${first.id}'] [data-testid='mutant-select']`).click();
  const focus = p.tid("mutant-selected");
  await focus.waitFor();
  assert.equal(await focus.getAttribute("data-id"), first.id);
  assert.equal(await focus.getAttribute("data-outcome"), "killed");
  assert.match(await p.tid("mutant-selected-killers").innerText(), new RegExp(`pytest fails ${first.tests[0]}`));
  assert.equal((await besideRows(focus)).filter((r) => r.changed).length >= 1, true);
  await p.page.waitForFunction((id) => location.hash.includes(`m=mutants&k=${id}`), first.id);
  await p.shot("mutants-beside");
  p.assertClean();
});

test("results of an earlier mutation run are flagged stale after an edit of the file or the solution", async () => {
  // The run of the test above is on screen, current.
  const view = p.tid("mutants-view");
  assert.equal(await view.getAttribute("data-stale"), "false");
  assert.equal(await p.tid("mutants-stale").count(), 0);
  const text = await p.getText();
  await p.setText(text + "\n# an edit\n");
  await p.page.waitForFunction(() => document.querySelector("[data-testid='mutants-view']")?.dataset.stale === "true");
  assert.equal(await p.tid("mutants-stale").getAttribute("data-changed"), "the test file");
  assert.match(await p.tid("mutants-stale").innerText(), /Stale: the test file changed/);
  // Back to the text that ran: current again.
  await p.setText(text);
  await p.page.waitForFunction(() => document.querySelector("[data-testid='mutants-view']")?.dataset.stale === "false");
  assert.equal(await p.tid("mutants-stale").count(), 0);
  // Another solution.
  await p.tid("run-solution-select").selectOption("stub");
  await p.page.waitForFunction(() => document.querySelector("[data-testid='mutants-stale']")?.dataset.changed === "the solution");
  await p.shot("mutants-stale");
  await p.tid("run-solution-select").selectOption("reference");
  await p.page.waitForFunction(() => document.querySelector("[data-testid='mutants-view']")?.dataset.stale === "false");
  p.assertClean();
});

test("a view link and a permalink to the Mutants view and a mutant restore them", async () => {
  const s = docs().sections.find((x) => x.problem === "merge_intervals");
  // A view link, in a fresh browser: the Mutants view, the mutant beside the solution before any run.
  const q = await session.open({ hash: `#view?p=merge_intervals&t=run&m=mutants&k=${s.id}` });
  try {
    await q.tid("mutants-view").waitFor();
    assert.equal(await q.tid("run-mode-mutants").isChecked(), true);
    const focus = q.tid("mutant-selected");
    await focus.waitFor();
    assert.equal(await focus.getAttribute("data-id"), s.id);
    assert.equal(await focus.getAttribute("data-found"), "true");
    assert.equal(await focus.getAttribute("data-outcome"), "none");
    const changed = (await besideRows(focus)).filter((r) => r.changed);
    assert.deepEqual(changed.map((r) => [r.line, r.solution, r.mutant]), [[String(s.line), s.old, s.new]]);
    // The address bar keeps it.
    assert.match(await q.page.evaluate(() => location.hash), new RegExp(`t=run&m=mutants&k=${s.id}`));
    // A permalink made here opens the same view elsewhere.
    await q.tid("permalink-button").click();
    await q.page.waitForFunction(() => typeof window.__benchExplorer.lastPermalink === "string");
    const url = new URL(await q.hook("lastPermalink"));
    const r = await session.open({ hash: url.hash });
    try {
      await r.tid("mutants-view").waitFor();
      assert.equal(await r.tid("run-mode-mutants").isChecked(), true);
      await r.tid("mutant-selected").waitFor();
      assert.equal(await r.tid("mutant-selected").getAttribute("data-id"), s.id);
      r.assertClean();
    } finally {
      await r.close();
    }
    // Without a mutant: the Mutants view alone.
    await q.page.evaluate(() => { location.hash = "#view?p=merge_intervals&t=run&m=mutants"; });
    await q.page.waitForFunction(() => !document.querySelector("[data-testid='mutant-selected']"));
    assert.equal(await q.tid("run-mode-mutants").isChecked(), true);
    q.assertClean();
  } finally {
    await q.close();
  }
});
