// Issue 11: the page's main thread never blocks for more than 50 ms, even on the large inputs:
// opening a 10 MB file, one test with 50,000 asserts, 300 KB of binary. The figures themselves
// (time to the result, every long task) are the benchmark's: `ONLY=heavy node benches/web.mjs`.
//
// A long task is a main-thread task over 50 ms (PerformanceObserver "longtask"). Its duration is
// wall-clock time, which a loaded machine inflates: on 2 cores shared with builds, the operating
// system takes the page's thread away in the middle of a task. So the limit is scaled by how loaded
// the machine is while the test runs, measured in the page itself: a fixed piece of JavaScript is
// timed repeatedly (`contention`), and the ratio of its median to its fastest run is the slowdown
// the page suffers from other work (1 on an idle machine; clamped to at most MAX_SLOWDOWN, so a
// real regression still fails). What is checked is what the page controls: its work is cut into
// slices (CodeMirror's parser at most 45 ms, the reply decoded 8 ms at a time, rows mounted 10 per
// frame, the editor's diagnostics in a task of their own), and each slice stays under the limit.
//
//   node --test tests/e2e/longtasks.test.mjs      (after `bash scripts/serve.sh --build`)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startSession, heavyInput } from "./harness.mjs";

const LONG_TASK_MS = 50;
const MAX_SLOWDOWN = 3;
const TIMEOUT = 240_000;

let session;
before(async () => {
  session = await startSession();
});
after(async () => {
  await session?.close();
});

/** How much slower than its best the page's thread runs now: median / fastest of a fixed workload. */
async function contention(page) {
  return page.evaluate(async () => {
    const runs = [];
    for (let r = 0; r < 9; r++) {
      const t = performance.now();
      const parts = [];
      for (let i = 0; i < 20_000; i++) parts.push(`k${i}:${(i * 2654435761) >>> 0}`);
      const joined = parts.join(",");
      let h = 0;
      for (const p of joined.split(",")) h = (h * 31 + p.length) | 0;
      runs.push(performance.now() - t + (h === 42 ? 1e-9 : 0));
      await new Promise((r) => setTimeout(r, 15));
    }
    runs.sort((a, b) => a - b);
    return { median: runs[4], fastest: Math.max(runs[0], 0.1) };
  });
}

async function openAndWatch(name) {
  const p = await session.open();
  // Python (the Run tab) loads in a worker once the page is idle; let it finish first.
  await p.page
    .waitForFunction(() => typeof window.__benchExplorer.pyReadyMs === "number" || window.__benchExplorer.pyState === "failed", null, { timeout: 120_000 })
    .catch(() => {});
  // The text goes to the page first: Playwright's transfer of the argument is the driver's task.
  await p.page.evaluate((t) => (window.__e2eHeavy = t), heavyInput(name));
  const before = await contention(p.page);
  await p.page.evaluate(() => {
    window.__e2eLong = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__e2eLong.push(Math.round(e.duration));
    }).observe({ type: "longtask" });
  });
  const n = await p.extractions();
  // As a file opened from disk: a new document (fresh history).
  await p.page.evaluate(() => window.__benchExplorer.editor.setDoc(window.__e2eHeavy, true));
  await p.waitForExtraction(n, TIMEOUT);
  await p.page.waitForFunction(() => window.__benchExplorer.rowsHeld !== true, null, { timeout: TIMEOUT });
  // Whatever the result set off (the editor's diagnostics, the session's save 300 ms later).
  await p.page.waitForTimeout(800);
  const long = await p.page.evaluate(() => window.__e2eLong.slice());
  const afterwards = await contention(p.page);
  const slowdown = Math.min(MAX_SLOWDOWN, Math.max(1, before.median / before.fastest, afterwards.median / afterwards.fastest));
  const limit = Math.round(LONG_TASK_MS * slowdown);
  const rows = await p.page.evaluate(() => document.querySelectorAll('[data-testid="assertion-row"]').length);
  p.assertClean();
  await p.close();
  return { long, limit, slowdown, rows };
}

for (const [name, label, rows] of [
  ["10mb", "opening a 10 MB file", 100],
  ["50k", "one test with 50,000 asserts", 100],
  ["binary", "300 KB of binary", 0],
  ["pairs100", "a small file whose extraction is tried on the page and stopped at the bound", 100],
]) {
  test(`no main-thread task over ${LONG_TASK_MS} ms: ${label}`, { timeout: 2 * TIMEOUT }, async () => {
    const r = await openAndWatch(name);
    console.log(`# ${label}: long tasks ${JSON.stringify(r.long)} ms; limit ${r.limit} ms (slowdown ${r.slowdown.toFixed(2)})`);
    // The result is really on screen (the test would pass on a page that showed nothing).
    assert.equal(r.rows, rows, "rows on screen");
    const over = r.long.filter((d) => d > r.limit);
    assert.deepEqual(over, [], `tasks over ${r.limit} ms (${LONG_TASK_MS} ms × slowdown ${r.slowdown.toFixed(2)}): ${JSON.stringify(r.long)}`);
  });
}
