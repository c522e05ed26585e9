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
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startSession, heavyInput, heavyBytes } from "./harness.mjs";

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

/** How a text enters the page (issue 28: every way in is measured): "setDoc" (the editor's own
 *  call, as a problem switch or a permalink does), "open" (the Open… button's file input), "drop" (a
 *  file dropped on the page), "paste" (the clipboard, into the editor). A file's bytes are the
 *  text's UTF-8, or for "binary" the random bytes themselves (so Open… meets invalid UTF-8). */
async function enter(p, way, name) {
  switch (way) {
    case "setDoc":
      // As a file opened from disk: a new document (fresh history).
      return p.page.evaluate(() => window.__benchExplorer.editor.setDoc(window.__e2eHeavy, true));
    case "open":
      return p.tid("file-input").setInputFiles(heavyFile(name));
    case "drop":
      return p.page.evaluate(
        ({ bytes }) => {
          const data = bytes === "binary" ? window.__e2eBytes : new TextEncoder().encode(window.__e2eHeavy);
          const dt = new DataTransfer();
          dt.items.add(new File([data], "test_dropped.py", { type: "text/x-python" }));
          window.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
        },
        { bytes: name },
      );
    case "paste":
      return p.page.evaluate(() => {
        const view = window.__benchExplorer.editor.view;
        view.focus();
        view.dispatch({ selection: { anchor: 0, head: view.state.doc.length } });
        const dt = new DataTransfer();
        dt.setData("text/plain", window.__e2eHeavy);
        view.contentDOM.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
      });
    default:
      throw new Error(`unknown way in: ${way}`);
  }
}

/** The input as a file on disk, for the file input (written once per input). */
const written = new Map();
function heavyFile(name) {
  if (!written.has(name)) {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "bench-e2e-")), `test_${name}.py`);
    writeFileSync(file, name === "binary" ? heavyBytes() : Buffer.from(heavyInput(name), "utf8"));
    written.set(name, file);
  }
  return written.get(name);
}

async function openAndWatch(name, way = "setDoc") {
  const p = await session.open();
  // Python (the Run tab) loads in a worker once the page is idle; let it finish first.
  await p.page
    .waitForFunction(() => typeof window.__benchExplorer.pyReadyMs === "number" || window.__benchExplorer.pyState === "failed", null, { timeout: 120_000 })
    .catch(() => {});
  // The text goes to the page first: Playwright's transfer of the argument is the driver's task.
  await p.page.evaluate((t) => (window.__e2eHeavy = t), heavyInput(name));
  if (name === "binary") await p.page.evaluate((b) => (window.__e2eBytes = Uint8Array.from(atob(b), (c) => c.charCodeAt(0))), heavyBytes().toString("base64"));
  const before = await contention(p.page);
  await p.page.evaluate(() => {
    window.__e2eLong = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__e2eLong.push(Math.round(e.duration));
    }).observe({ type: "longtask" });
  });
  // What the editor holds once the text is in (CodeMirror reads \r\n and \r as line ends), and the
  // size of the text whose result is awaited: another result (the file name's, for the text before)
  // may come first.
  const expected = (name === "binary" ? new TextDecoder().decode(heavyBytes()) : heavyInput(name)).replace(/\r\n?/g, "\n");
  await enter(p, way, name);
  await p.page.waitForFunction((b) => window.__benchExplorer.lastBytes === b, Buffer.byteLength(expected), { timeout: TIMEOUT });
  await p.page.waitForFunction(() => window.__benchExplorer.rowsHeld !== true, null, { timeout: TIMEOUT });
  // Whatever the result set off (the editor's diagnostics, the session's save 300 ms later).
  await p.page.waitForTimeout(800);
  const long = await p.page.evaluate(() => window.__e2eLong.slice());
  const afterwards = await contention(p.page);
  const slowdown = Math.min(MAX_SLOWDOWN, Math.max(1, before.median / before.fastest, afterwards.median / afterwards.fastest));
  const limit = Math.round(LONG_TASK_MS * slowdown);
  const rows = await p.page.evaluate(() => document.querySelectorAll('[data-testid="assertion-row"]').length);
  // The text arrived whole (a file of random bytes is shown with U+FFFD where Python would refuse it).
  const text = await p.getText();
  assert.ok(text === expected, `the editor holds the ${name} input entered by ${way} (${text.length} of ${expected.length} characters)`);
  p.assertClean();
  await p.close();
  return { long, limit, slowdown, rows };
}

for (const [name, way, label, rows] of [
  ["10mb", "setDoc", "a 10 MB file put in the editor", 100],
  ["10mb", "open", "a 10 MB file opened with Open…", 100],
  ["10mb", "drop", "a 10 MB file dropped on the page", 100],
  ["10mb", "paste", "10 MB pasted into the editor", 100],
  ["50k", "setDoc", "one test with 50,000 asserts", 100],
  ["binary", "setDoc", "300 KB of binary", 0],
  ["binary", "open", "300 KB of binary opened with Open… (not UTF-8: Python's words, then the text shown)", 0],
  ["pairs100", "setDoc", "a small file whose extraction is tried on the page and stopped at the bound", 100],
]) {
  test(`no main-thread task over ${LONG_TASK_MS} ms: ${label}`, { timeout: 2 * TIMEOUT }, async () => {
    const r = await openAndWatch(name, way);
    console.log(`# ${label}: long tasks ${JSON.stringify(r.long)} ms; limit ${r.limit} ms (slowdown ${r.slowdown.toFixed(2)})`);
    // The result is really on screen (the test would pass on a page that showed nothing).
    assert.equal(r.rows, rows, "rows on screen");
    const over = r.long.filter((d) => d > r.limit);
    assert.deepEqual(over, [], `tasks over ${r.limit} ms (${LONG_TASK_MS} ms × slowdown ${r.slowdown.toFixed(2)}): ${JSON.stringify(r.long)}`);
  });
}
