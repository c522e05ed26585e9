// End-to-end tests of the Run tab in Debian's Chromium: Pyodide in a Web Worker, the bench loop's
// view beside real pytest, the verdicts, the whole bench, time limits and permalinks. Against the
// release build served on 127.0.0.1 (env E2E_DIST, default dist/; `bash scripts/serve.sh --build`).
// Run: node --test --test-concurrency=1 tests/e2e/
//
// The tests share one page where they can (Python's cold start costs seconds): they run in order,
// each leaving the page usable for the next. Nothing waits a fixed time: each step waits for the
// page's own counters (window.__benchExplorer.runs / benchRuns) or for an attribute.
// Timings (cold start, first and warm run, whole bench) are printed as `[timing]` lines.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startSession } from "./harness.mjs";

const PY_TIMEOUT = 120_000;
let session;
let p; // the shared page

before(async () => {
  session = await startSession();
  p = await session.open();
});

after(async () => {
  await p?.close();
  await session?.close();
});

const hook = (field) => p.hook(field);

/** Wait until Python has started in the page (the worker reports ready). */
const waitPython = (page = p) =>
  page.page.waitForFunction(() => window.__benchExplorer.pyState === "ready", null, { timeout: PY_TIMEOUT });

/** Click Run (or press the shortcut) and wait until the run's outcome is on screen; returns its status. */
async function run({ page = p, shortcut = false } = {}) {
  const before = (await page.hook("runs")) || 0;
  if (shortcut) await page.page.keyboard.press("Control+Enter");
  else await page.tid("run-button").click();
  await page.page.waitForFunction((n) => (window.__benchExplorer.runs || 0) > n, before, { timeout: PY_TIMEOUT });
  return page.hook("lastRunStatus");
}

/** The verdicts of the side-by-side rows, in order. */
const verdicts = (page = p) =>
  page.page.$$eval("[data-testid='run-row']", (rows) => rows.map((r) => r.dataset.verdict));

async function chooseSolution(choice) {
  await p.tid("run-solution-select").selectOption(choice);
}

/** Put code in the Run tab's own editor (one transaction, as a paste would). */
async function setSolution(code) {
  await chooseSolution("custom");
  await p.tid("solution-editor-content").waitFor();
  await p.page.evaluate((c) => window.__benchExplorer.solutionEditor.setDoc(c, false), code);
}

const ms = (x) => `${Math.round(x)} ms`;

test("Python loads in the background with visible progress; extraction never waits for it", async () => {
  // The first extraction is on screen before Python is ready (the harness waited for it).
  const shown = await hook("firstExtractionShownMs");
  assert.ok(shown > 0);
  await p.tid("tab-run").click();
  await p.tid("py-progress").waitFor();
  await waitPython();
  assert.equal(await p.tid("py-progress").getAttribute("data-state"), "ready");
  assert.equal(await p.tid("py-dot").getAttribute("data-state"), "ready");
  const ready = await hook("pyReadyMs");
  const load = await hook("pyLoadMs");
  assert.ok(ready > shown, `Python was ready (${ready}) only after the first extraction (${shown})`);
  console.log(`[timing] cold start: Python ready ${ms(ready)} after navigation (${ms(load)} from the page's request); first extraction on screen at ${ms(shown)}`);
  // Nothing has run by itself.
  assert.equal(await hook("runs"), undefined);
  assert.equal(await p.tid("run-status").getAttribute("data-state"), "idle");
});

test("run a bench problem: both views agree on the reference solution", async () => {
  await chooseSolution("reference");
  assert.equal(await run(), "done");
  const first = await hook("lastRunMs");
  const v = await verdicts();
  assert.equal(v.length, 7);
  assert.deepEqual([...new Set(v)], ["agree"]);
  const rows = p.tid("run-row");
  for (let i = 0; i < 7; i++) {
    assert.equal(await rows.nth(i).getAttribute("data-eval"), "pass");
    assert.equal(await rows.nth(i).getAttribute("data-pytest"), "passed");
  }
  // pytest's own view: one row per test, all passed.
  const outcomes = await p.page.$$eval("[data-testid='pytest-row']", (r) => r.map((x) => x.dataset.outcome));
  assert.deepEqual(outcomes, Array(7).fill("passed"));
  const summary = p.tid("run-summary");
  assert.equal(await summary.getAttribute("data-checked"), "7");
  assert.equal(await summary.getAttribute("data-passing"), "7");
  assert.equal(await summary.getAttribute("data-measurement-bugs"), "0");
  assert.equal(await p.tid("run-headline").getAttribute("data-tone"), "good");

  // Warm: the same run again, through the keyboard shortcut.
  assert.equal(await run({ shortcut: true }), "done");
  const warm = await hook("lastRunMs");
  console.log(`[timing] word_ladder, both views: first run ${ms(first)}, warm run ${ms(warm)} (Python ${ms(await hook("lastRunPythonMs"))})`);
  await p.shot("run-agree");
});

test("a solution with a bug shows a solution bug, never a measurement bug", async () => {
  // "Your code" starts as a copy of the reference solution: make it off by one where begin
  // equals end, so that one test fails, in both views.
  await chooseSolution("custom");
  await p.tid("solution-editor-content").waitFor();
  const reference = await p.page.evaluate(() => window.__benchExplorer.solutionEditor.getDoc());
  assert.match(reference, /if begin == end:\n        return 1/);
  await setSolution(reference.replace("if begin == end:\n        return 1", "if begin == end:\n        return 2"));
  assert.equal(await run(), "done");
  const v = await verdicts();
  assert.equal(v.filter((x) => x === "solution-bug").length, 1, v.join(","));
  assert.equal(v.filter((x) => x === "measurement-bug").length, 0);
  assert.equal(v.filter((x) => x === "agree").length, 6);
  const bug = p.page.locator("[data-testid='run-row'][data-verdict='solution-bug']");
  assert.equal(await bug.getAttribute("data-test"), "test_begin_equals_end");
  assert.equal(await bug.getAttribute("data-eval"), "fail");
  assert.equal(await bug.getAttribute("data-pytest"), "failed");
  assert.match(await bug.getByTestId("run-blame").innerText(), /solution/);
  const failed = p.page.locator("[data-testid='pytest-row'][data-outcome='failed']");
  assert.equal(await failed.count(), 1);
  assert.equal(await failed.getAttribute("data-test"), "test_begin_equals_end");
  assert.equal(await p.tid("run-summary").getAttribute("data-solution-bugs"), "1");
  assert.equal(await p.tid("run-headline").getAttribute("data-tone"), "warn");
  await p.shot("run-solution-bug");
});

test("the write-up's first stage: measurement bugs on word_ladder, blamed on the extractor", async () => {
  await chooseSolution("reference");
  await p.tid("stage-as-written").check();
  assert.equal(await run(), "done");
  const v = await verdicts();
  // Six `result == N` checks plus the helper's assert fail in the loop while pytest passes.
  assert.equal(v.filter((x) => x === "measurement-bug").length, 7, v.join(","));
  assert.equal(v.filter((x) => x === "solution-bug").length, 0);
  const row = p.page.locator("[data-testid='run-row'][data-test='test_classic_hit_to_cog']");
  assert.equal(await row.getAttribute("data-verdict"), "measurement-bug");
  assert.equal(await row.getAttribute("data-eval"), "error");
  assert.equal(await row.getAttribute("data-pytest"), "passed");
  assert.match(await row.getByTestId("run-error").innerText(), /NameError: name 'result' is not defined/);
  assert.match(await row.getByTestId("run-blame").innerText(), /extractor/);
  assert.equal(await p.tid("run-headline").getAttribute("data-tone"), "bad");
  assert.equal(await p.tid("run-summary").getAttribute("data-measurement-bugs"), "7");
  await p.shot("run-measurement-bugs");
  // Back to the faithful extractor: no measurement bug left.
  await p.tid("stage-full").check();
  assert.equal(await run(), "done");
  assert.equal((await verdicts()).filter((x) => x === "measurement-bug").length, 0);
});

test("the whole bench replays the write-up: quiet bugs, fixes, 21 of 21", async () => {
  await p.tid("run-mode-bench").check();
  await p.tid("bench-stage-select").selectOption("all");
  await p.tid("bench-solution-select").selectOption("reference");
  const before = (await hook("benchRuns")) || 0;
  await p.tid("bench-run-button").click();
  // Progress is visible while it runs.
  await p.page.waitForFunction(() => document.querySelector("[data-testid='bench-progress']")?.dataset.running === "true");
  await p.page.waitForFunction((n) => (window.__benchExplorer.benchRuns || 0) > n, before, { timeout: 300_000 });
  const report = await hook("lastBenchRun");
  const byStage = Object.fromEntries(report.stages.map((s) => [s.stage, s]));
  const row = (stage) => p.page.locator(`[data-testid='bench-stage-row'][data-stage='${stage}']`);
  // The write-up's table, measured here (tests/python/test_stages.py asserts the same figures natively).
  const figures = (s) => [s.firstTry, s.passing, s.checked, s.measurementBugs];
  assert.equal(byStage["as-written"].firstTry, 0);
  assert.equal(byStage["as-written"].measurementBugs, 163);
  // After the six-shape fix: 20 of 21 first try, 147 of 148 assertions (the seventh shape bites once).
  assert.deepEqual(figures(byStage["six-shapes"]), [20, 147, 148, 1]);
  // After the seventh-shape fix: 21 of 21.
  assert.deepEqual(figures(byStage["seven-shapes"]), [21, 147, 147, 0]);
  // Ours: every assertion pytest runs as a passing check, the write-up's `random` loop included
  // (its nested loops and `if` replayed in order).
  assert.deepEqual(figures(byStage["full"]), [21, 198, 198, 0]);
  assert.equal(report.pytestRuns, 21);
  assert.equal(await row("as-written").getAttribute("data-measurement-bugs"), "163");
  assert.equal(await row("as-written").getAttribute("data-first-try"), "0");
  assert.equal(await row("six-shapes").getAttribute("data-first-try"), "20");
  assert.equal(await row("six-shapes").getAttribute("data-checked"), "148");
  assert.equal(await row("six-shapes").getAttribute("data-passing"), "147");
  assert.equal(await row("full").getAttribute("data-first-try"), "21");
  assert.equal(await row("full").getAttribute("data-checked"), "198");
  // Problem by problem after the six-shape fix: the write-up's seven unblocked problems, and
  // inversion counting failing one of its nine checks.
  await row("six-shapes").locator("button.link").click();
  await p.page.locator("[data-testid='bench-problem-table'][data-stage='six-shapes']").waitFor();
  const passingOf = (slug) =>
    p.page.locator(`[data-testid='bench-problem-table'] [data-testid='bench-problem-row'][data-slug='${slug}'] td.num`).first().innerText();
  const seven = {
    damerau_levenshtein: 12, dijkstra_shortest_path: 10, bfs_shortest_path: 7, kadane_max_subarray: 5,
    subarray_sum_k: 8, two_sum_pairs: 8, wildcard_match: 16,
  };
  for (const [slug, n] of Object.entries(seven)) assert.equal(await passingOf(slug), `${n} / ${n}`, slug);
  assert.equal(await passingOf("count_inversions"), "8 / 9");
  await row("seven-shapes").locator("button.link").click();
  await p.page.locator("[data-testid='bench-problem-table'][data-stage='seven-shapes']").waitFor();
  assert.equal(await passingOf("count_inversions"), "8 / 8");
  assert.equal(await p.tid("bench-progress").getAttribute("data-done"), "84");
  console.log(
    `[timing] whole bench (21 problems × 4 stages, 21 pytest runs): ${ms(report.wallMs)} ` +
      Object.values(byStage)
        .map((s) => `${s.stage} ${s.firstTry}/21 first try, ${s.passing}/${s.checked}, ${s.measurementBugs} measurement bugs`)
        .join("; "),
  );
  await p.shot("run-whole-bench");

  // Cancellable: start again and cancel at once; the run stops early and the page stays usable.
  const again = (await hook("benchRuns")) || 0;
  await p.tid("bench-run-button").click();
  await p.tid("bench-cancel-button").click();
  await p.page.waitForFunction((n) => (window.__benchExplorer.benchRuns || 0) > n, again, { timeout: PY_TIMEOUT });
  const cancelled = await hook("lastBenchRun");
  assert.equal(cancelled.cancelled, true);
  assert.equal(await p.tid("bench-progress").getAttribute("data-cancelled"), "true");
  assert.ok(Number(await p.tid("bench-progress").getAttribute("data-done")) < 84);
  await p.tid("run-mode-file").check();
});

test("an infinite loop times out, the page stays usable, and the next run works", async () => {
  await p.tid("run-timeout").fill("3");
  await setSolution("def word_ladder(begin, end, words):\n    return 0\n\nwhile True:\n    pass\n");
  const before = (await hook("runs")) || 0;
  await p.tid("run-button").click();
  await p.page.waitForFunction(() => document.querySelector("[data-testid='run-status']")?.dataset.state === "running");
  // The page is not blocked while Python spins: an edit is extracted meanwhile.
  const n = await p.extractions();
  await p.setText((await p.getText()) + "\n\ndef test_extra():\n    assert word_ladder('a', 'a', ['a']) == 1\n");
  assert.ok((await p.extractions()) > n);
  assert.equal(await p.tid("run-status").getAttribute("data-state"), "running");
  await p.page.waitForFunction((k) => (window.__benchExplorer.runs || 0) > k, before, { timeout: PY_TIMEOUT });
  assert.equal(await hook("lastRunStatus"), "timeout");
  assert.equal(await p.tid("run-status").getAttribute("data-state"), "timeout");
  assert.match(await p.tid("run-status").innerText(), /Timed out after 3\.0 s/);
  await p.shot("run-timeout");
  // The next run works (on a fresh worker).
  await p.tid("revert").click();
  await chooseSolution("reference");
  assert.equal(await run(), "done");
  assert.deepEqual([...new Set(await verdicts())], ["agree"]);
  const restarted = await hook("lastRunMs");
  console.log(`[timing] run right after a timeout (a fresh worker starts first): ${ms(restarted)}`);
  await p.tid("run-timeout").fill("5");
  p.assertClean();
});

test("Ctrl+. stops a run under way, from the keyboard", async () => {
  await p.tid("run-timeout").fill("60");
  await setSolution("def word_ladder(begin, end, words):\n    return 0\n\nwhile True:\n    pass\n");
  await waitPython();
  const before = (await hook("runs")) || 0;
  await p.tid("tab-run").focus();
  await p.page.keyboard.press("Control+Enter");
  await p.page.waitForFunction(() => document.querySelector("[data-testid='run-status']")?.dataset.state === "running");
  await p.page.keyboard.press("Control+Period");
  await p.page.waitForFunction((k) => (window.__benchExplorer.runs || 0) > k, before, { timeout: PY_TIMEOUT });
  assert.equal(await hook("lastRunStatus"), "stopped");
  await chooseSolution("reference");
  await p.tid("run-timeout").fill("5");
  assert.equal(await run(), "done");
  p.assertClean();
});

test("a permalink carrying code does not run by itself", async () => {
  // Make a permalink with an edited test file and code of our own in the Run tab.
  await p.tid("tab-run").click();
  await setSolution("def word_ladder(begin, end, words):\n    return 5\n");
  await p.setText((await p.getText()).replace("assert result == 0\n", "assert result == 5\n"));
  await p.tid("permalink-button").click();
  await p.page.waitForFunction(() => typeof window.__benchExplorer.lastPermalink === "string");
  const url = new URL(await hook("lastPermalink"));

  const q = await session.open({ hash: url.hash });
  try {
    await q.tid("tab-run").click();
    await q.tid("permalink-run-notice").waitFor();
    assert.equal(await q.tid("run-solution-select").inputValue(), "custom");
    assert.match(await q.page.evaluate(() => window.__benchExplorer.solutionEditor.getDoc()), /return 5/);
    // Python starts, and still nothing runs.
    await waitPython(q);
    assert.equal(await q.hook("runs"), undefined);
    assert.equal(await q.tid("run-status").getAttribute("data-state"), "idle");
    assert.equal(await q.tid("run-row").count(), 0);
    await q.shot("run-permalink-waits");
    // Only a click runs it; then the notice goes.
    assert.equal(await run({ page: q }), "done");
    assert.equal(await q.tid("permalink-run-notice").count(), 0);
    assert.ok((await verdicts(q)).length > 0);
    q.assertClean();
  } finally {
    await q.close();
  }
  p.assertClean();
});
