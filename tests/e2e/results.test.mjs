// End-to-end tests of the results list under large outputs (issue 11): extraction runs in a worker,
// the list renders lazily (rows keyed by identity, a window that counts rows), folded expressions
// show collapsed, syntax errors are capped, and a file that is not text is named as such.
// Run: node --test --test-concurrency=1 tests/e2e/  (E2E_DIST, default dist/)

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startSession } from "./harness.mjs";

let session;
before(async () => {
  session = await startSession();
});
after(async () => {
  await session?.close();
});

async function withPage(opts, body) {
  const p = await session.open(opts);
  try {
    await body(p);
    p.assertClean();
  } finally {
    await p.close();
  }
}

test("one test with thousands of asserts: the list shows rows, not whole groups", async () => {
  await withPage({}, async (p) => {
    const lines = ["from solution import f", "", "def test_many():"];
    for (let i = 0; i < 5_000; i++) lines.push(`    assert f(${i}) == ${i}`);
    await p.setText(lines.join("\n") + "\n", { timeout: 120000 });
    assert.equal(await p.tid("assertion-count").textContent(), "5000");
    assert.equal(await p.tid("assertion-row").count(), 100);
    const more = p.tid("show-more");
    assert.equal(await more.textContent(), "Show more (100 of 5000 shown)");
    await more.click();
    await p.page.waitForFunction(() => document.querySelectorAll('[data-testid="assertion-row"]').length === 300);
    assert.equal(await more.textContent(), "Show more (300 of 5000 shown)");
  });
});

test("rows keep their identity when lines above them change; positions follow", async () => {
  await withPage({}, async (p) => {
    const src = "from solution import f\n\ndef test_a():\n    assert f(1) == 1\n\ndef test_b():\n    assert f(2) == 2\n";
    await p.setText(src);
    const row = p.page.locator('[data-testid="assertion-row"][data-test="test_b"]');
    assert.equal(await row.getAttribute("data-line"), "7");
    await row.evaluate((el) => (el.__e2eMark = true));
    await p.setText("# a new first line\n" + src);
    await p.page.waitForFunction(
      () => document.querySelector('[data-testid="assertion-row"][data-test="test_b"]')?.dataset.line === "8",
    );
    // The same element, not a rebuilt one.
    assert.equal(await row.evaluate((el) => el.__e2eMark === true), true);
    // A changed assert is a new row.
    await p.setText("# a new first line\n" + src.replace("f(2) == 2", "f(2) == 3"));
    await p.page.locator('[data-testid="assertion-row"][data-test="test_b"] [data-testid="assertion-expr"]', { hasText: "== 3" }).waitFor();
    assert.equal(await row.evaluate((el) => el.__e2eMark === true), false);
  });
});

test("a long folded expression shows collapsed and expands on demand", async () => {
  await withPage({}, async (p) => {
    const lines = ["from solution import Cache", "", "def test_pairs():", "    c = Cache(4)"];
    for (let i = 0; i < 60; i++) lines.push(`    c.put(${i}, ${i})`, `    assert c.get(${i}) == ${i}`);
    await p.setText(lines.join("\n") + "\n");
    const last = p.tid("assertion-expr").last();
    assert.equal(await last.getAttribute("data-collapsed"), "true");
    const shown = await last.textContent();
    assert.match(shown, /^\(lambda: \[c := Cache\(4\)\] and /);
    assert.match(shown, / and c\.get\(59\) == 59\)\(\)$/);
    assert.match(shown, /… \d+ more steps …/);
    await last.getByTestId("expand-expr").click();
    const full = p.tid("assertion-expr").last();
    await p.page.waitForFunction(() => {
      const all = document.querySelectorAll('[data-testid="assertion-expr"]');
      return all[all.length - 1].dataset.collapsed === undefined;
    });
    const text = await full.textContent();
    assert.ok(text.includes("c.put(30, 30)"), text.slice(0, 200));
    assert.ok(text.length > shown.length);
    await p.tid("copy-all-kept").waitFor();
  });
});

test("a file that is not text is named, not parsed; syntax errors are capped", async () => {
  await withPage({}, async (p) => {
    let seed = 7;
    const bytes = Buffer.alloc(50_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
    await p.setText(new TextDecoder("utf-8").decode(bytes), { timeout: 60000 });
    await p.tid("not-text").filter({ hasText: "This file is not text" }).waitFor();
    assert.equal(await p.tid("syntax-error").count(), 0);
    assert.equal(await p.tid("assertion-row").count(), 0);

    // Text with many syntax errors: the first 50 are listed, with the count of the rest.
    const broken = Array.from({ length: 300 }, (_, i) => `x${i} y${i}\n`).join("");
    await p.setText(broken, { timeout: 60000 });
    await p.tid("not-text").waitFor({ state: "detached" });
    const errors = await p.tid("syntax-error").count();
    assert.equal(errors, 50);
    assert.match(await p.tid("more-syntax-errors").textContent(), /and \d+ more syntax errors/);
  });
});

test("a fold reads one step per line, the final check last, and back to one line", async () => {
  await withPage({}, async (p) => {
    const src = "from solution import Cache\n\ndef test_put_get():\n    c = Cache()\n    c.put('a', 1)\n    assert c.get('a') == 1\n";
    await p.setText(src);
    const row = p.page.locator('[data-testid="assertion-row"][data-test="test_put_get"]');
    const oneLine = await row.locator('[data-testid="assertion-expr"]').textContent();
    assert.ok(oneLine.startsWith("(lambda:"), oneLine);
    await row.locator('[data-testid="lines-expr"]').click();
    const lines = (await row.locator('[data-testid="assertion-readable"]').textContent()).split("\n");
    assert.deepEqual(lines.map((l) => l.trim()), [
      "(lambda:", "[c := Cache()]", "and [c.put('a', 1)]", "and c.get('a') == 1", ")()",
    ]);
    await row.locator('[data-testid="lines-expr"]').click();
    assert.equal(await row.locator('[data-testid="assertion-expr"]').textContent(), oneLine);
  });
});
