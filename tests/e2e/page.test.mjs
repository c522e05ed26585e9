// End-to-end tests of the explorer page in Debian's Chromium (npm playwright-core), against the
// release build served on 127.0.0.1 (env E2E_DIST, default dist/; build it with
// `bash scripts/serve.sh --build`). Run: node --test --test-concurrency=1 tests/e2e/
//
// Every test opens a fresh browser context and fails if the page logs a console error, throws, trips
// its Content-Security-Policy or asks another host for anything (tests/e2e/harness.mjs). Screenshots
// of the main views go to test-artifacts/e2e/; the README's screenshot is compared with docs/screenshot.png
// (scripts/screenshot.sh refreshes it).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, mkdirSync, existsSync, writeFileSync } from "node:fs";
import { inflateSync } from "node:zlib";
import path from "node:path";
import { startSession, synthTestFile, ROOT } from "./harness.mjs";

let session;
before(async () => {
  session = await startSession();
});
after(async () => {
  await session?.close();
});

/** Open a page, run `body(p)`, then require a clean page (and always close the context). */
async function withPage(opts, body) {
  const p = await session.open(opts);
  try {
    await body(p);
    p.assertClean();
  } finally {
    await p.close();
  }
}

const benchTest = (slug) => {
  const dir = path.join(ROOT, "problems", slug);
  const name = readdirSync(dir).find((f) => /^test_.*\.py$/.test(f));
  return { name, text: readFileSync(path.join(dir, name), "utf8") };
};

/** Wait until the hook reports this stage's extraction on screen. */
const waitStage = (p, stage) =>
  p.page.waitForFunction((s) => window.__benchExplorer.stage === s && window.__benchExplorer.currentStage === s, stage);

const exprs = (p) => p.tid("assertion-expr").allTextContents();

/** The data-testid of the focused element, looking into shadow roots (the editor's content). */
const focusedTestId = (page) =>
  page.evaluate(() => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el) return null;
    const own = el.getAttribute("data-testid");
    if (own) return own;
    const up = el.closest("[data-testid]");
    return up ? `in:${up.getAttribute("data-testid")}` : el.tagName.toLowerCase();
  });

// ---- the list ---------------------------------------------------------------------------

test("pick a problem and see its assertions", async () => {
  await withPage({}, async (p) => {
    // The default view is word_ladder; pick another problem.
    const { name, text } = benchTest("lru_cache");
    const before = await p.extractions();
    await p.tid("problem-picker").selectOption("lru_cache");
    await p.waitForExtraction(before);
    await p.page.waitForFunction((n) => window.__benchExplorer.currentFile === n, name);
    assert.equal(await p.tid("file-name").inputValue(), name);
    assert.equal(await p.getText(), text);

    // Every test function of the file has its group, and the counts agree with the rows.
    const tests = [...text.matchAll(/^def (test_\w+)/gm)].map((m) => m[1]);
    await p.page.locator(`[data-testid="test-group"][data-test="${tests[0]}"]`).waitFor();
    const groups = await p.tid("test-group").evaluateAll((els) => els.map((e) => e.dataset.test));
    for (const t of tests) assert.ok(groups.some((g) => g === t || g.startsWith(`${t}[`)), `no group for ${t}: ${groups}`);
    const rows = await p.tid("assertion-row").count();
    const kept = Number(await p.tid("summary").getAttribute("data-kept"));
    const dropped = Number(await p.tid("summary").getAttribute("data-dropped"));
    assert.ok(kept > 0, "lru_cache keeps assertions");
    assert.equal(kept + dropped, rows);
    assert.equal(await p.tid("assertion-count").textContent(), String(rows));
    assert.equal(await p.tid("kept-count").textContent(), String(kept));
    // A kept row shows its expression, taken from the file.
    const shown = await exprs(p);
    assert.equal(shown.length, kept);
    assert.ok(shown.some((e) => e.includes("LRUCache") || e.includes(".get(")), shown.join("\n"));
    await p.shot("assertions-lru_cache");
  });
});

test("the bench's statements, stubs and solutions are fetched once, when a view needs them", async () => {
  const fetched = (p) =>
    p.page.evaluate(() => performance.getEntriesByType("resource").filter((e) => /\/bench\.json$/.test(e.name)).length);
  await withPage({}, async (p) => {
    // Start-up and picking a problem need only the test files the wasm embeds.
    await p.tid("problem-picker").selectOption("clean_phone");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_clean_phone.py");
    assert.equal(await p.getText(), benchTest("clean_phone").text);
    assert.equal(await fetched(p), 0, "bench.json is not part of the first load");
    // The Problem tab fetches them: the statement beside the original one, the solution, the stub.
    await p.tid("tab-problem").click();
    await p.tid("statement-compare").waitFor();
    await p.tid("solution-code").filter({ hasText: "def clean_phone" }).waitFor();
    await p.tid("show-stub").click();
    await p.tid("solution-code").filter({ hasText: "NotImplementedError" }).waitFor();
    // The audit and the Run tab use the same files: no second request.
    await p.tid("tab-audit").click();
    await p.tid("stage-card-full").waitFor();
    await p.tid("tab-run").click();
    await p.tid("run-solution-select").waitFor();
    assert.equal(await fetched(p), 1);
  });
  // A link to the Problem tab opens it, the statement arriving after the file.
  await withPage({ hash: "#problem" }, async (p) => {
    await p.tid("problem-view").waitFor();
    assert.equal(await p.hook("currentFile"), "test_word_ladder.py");
  });
  // When bench.json cannot be had, the tabs that need it say so and the rest of the page works.
  await withPage({ block: [/\/bench\.json$/], allow: [/bench\.json/, /Failed to load resource/] }, async (p) => {
    await p.tid("tab-problem").click();
    await p.tid("bench-files-error").filter({ hasText: "could not be loaded" }).waitFor();
    await p.tid("tab-assertions").click();
    assert.ok((await p.tid("assertion-row").count()) > 0);
  });
});

test("CodeMirror's search is loaded the first time it is used, and says so if it cannot be", async () => {
  const fetched = (p) =>
    p.page.evaluate(() => performance.getEntriesByType("resource").filter((e) => /\/editor-search\.js$/.test(e.name)).length);
  const editor = (p) => p.page.locator('[data-testid="editor-content"]');
  await withPage({}, async (p) => {
    assert.equal(await fetched(p), 0, "editor-search.js is not part of the first load");
    // Ctrl+F loads it and opens the panel; the search finds text in the file.
    await editor(p).focus();
    await p.page.keyboard.press("Control+f");
    const field = p.page.locator(".cm-search input[name=search]").first();
    await field.waitFor();
    await field.fill("word_ladder");
    await p.page.keyboard.press("Enter");
    await p.page.locator(".cm-searchMatch").first().waitFor();
    await p.page.keyboard.press("Escape");
    await p.page.locator(".cm-search").first().waitFor({ state: "detached" });
    // Selecting text highlights its other occurrences (highlightSelectionMatches), from the same file.
    await p.page.locator('[data-testid="editor-content"] .cm-line span', { hasText: /^assert$/ }).first().dblclick();
    await p.page.locator(".cm-selectionMatch").first().waitFor();
    assert.equal(await fetched(p), 1);
  });
  // A first selection loads it too, so that its occurrences are highlighted.
  await withPage({}, async (p) => {
    await p.page.locator('[data-testid="editor-content"] .cm-line span', { hasText: /^def$/ }).first().dblclick();
    await p.page.locator(".cm-selectionMatch").first().waitFor();
  });
  // When it cannot be had, the editor says why, with a button to try again; the editor still works.
  await withPage({ block: [/\/editor-search\.js$/], allow: [/editor-search/, /Failed to load resource/] }, async (p) => {
    await editor(p).focus();
    await p.page.keyboard.press("Control+f");
    const note = p.page.locator(".cm-search-note").first();
    await note.filter({ hasText: "Search could not be loaded" }).waitFor();
    await note.getByRole("button", { name: "Try again" }).waitFor();
    assert.equal(await p.page.locator(".cm-search").count(), 0);
  });
});

test("typing changes the result", async () => {
  await withPage({}, async (p) => {
    assert.equal(await p.hook("currentFile"), "test_word_ladder.py");
    const before = await exprs(p);
    assert.ok(before.includes('word_ladder("hit", "cog", ["hot", "dot", "dog", "lot", "log", "cog"]) == 5'), before.join("\n"));

    // Real keystrokes: put the cursor at the end of `assert result == 5` and type.
    await p.page.locator('[data-testid="editor-content"] .cm-line', { hasText: "assert result == 5" }).click();
    await p.page.keyboard.press("End");
    await p.page.keyboard.type("0 + 1");
    await p.page.getByText('word_ladder("hit", "cog", ["hot", "dot", "dog", "lot", "log", "cog"]) == 50 + 1').waitFor();
    await p.tid("modified").waitFor();
    const lineNo = benchTest("word_ladder").text.split("\n").indexOf("    assert result == 5") + 1;
    assert.equal(await p.tid("cursor-line").textContent(), `Ln ${lineNo}`);

    // Revert brings the bench's file back.
    await p.tid("revert").click();
    await p.tid("modified").waitFor({ state: "detached" });
    assert.equal(await p.getText(), benchTest("word_ladder").text);

    // A new test, in one editor transaction: its group and row appear.
    const text = (await p.getText()) + '\n\ndef test_added_by_e2e():\n    assert word_ladder("ab", "ab", ["ab"]) == 1\n';
    const rows = await p.tid("assertion-row").count();
    await p.setText(text);
    await p.page.locator('[data-testid="test-group"][data-test="test_added_by_e2e"]').waitFor();
    assert.equal(await p.tid("assertion-row").count(), rows + 1);
    await p.tid("modified").waitFor();

    // Undo is the editor's: Ctrl+Z takes the added test back out.
    await p.page.locator('[data-testid="editor-content"]').focus();
    await p.page.keyboard.press("Control+z");
    await p.page.locator('[data-testid="test-group"][data-test="test_added_by_e2e"]').waitFor({ state: "detached" });
    await p.tid("modified").waitFor({ state: "detached" });
  });
});

test("a syntax error shows as a diagnostic on its line", async () => {
  await withPage({}, async (p) => {
    const text = [
      "from solution import add", // 1
      "", // 2
      "", // 3
      "def test_add():", // 4
      "    assert add(2, 3) == 5", // 5
      "", // 6
      "", // 7
      "def test_broken():", // 8
      "    assert add(1, 1) === 2", // 9  <- the error
      "", // 10
    ].join("\n");
    await p.setText(text);
    const err = p.tid("syntax-error").first();
    await err.waitFor();
    const loc = await err.locator(".loc").textContent();
    assert.match(loc, /^9:\d+$/, `syntax error reported at ${loc}`);
    await p.page.waitForFunction(() => Number(document.querySelector('[data-testid="diagnostics-count"]').dataset.errors) >= 1);

    // In the editor: the lint range sits on line 9 (the 9th .cm-line), and the gutter marks it.
    const lines = await p.page.evaluate(() => {
      const content = document.querySelector('[data-testid="editor"]').shadowRoot.querySelector(".cm-content");
      const all = [...content.querySelectorAll(":scope > .cm-line")];
      return [...content.querySelectorAll(".cm-lintRange-error")].map((r) => all.indexOf(r.closest(".cm-line")) + 1);
    });
    assert.ok(lines.length >= 1, "no error range in the editor");
    assert.deepEqual([...new Set(lines)], [9]);
    // The test before the error still extracts.
    await p.page.locator('[data-testid="test-group"][data-test="test_add"]').waitFor();

    // Clicking the error puts the cursor on its line.
    await err.click();
    await p.page.waitForFunction(() => document.querySelector('[data-testid="cursor-line"]').textContent === "Ln 9");
    await p.shot("syntax-error");

    // Fixing it clears the diagnostic.
    await p.setText(text.replace("===", "=="));
    await p.tid("syntax-error").waitFor({ state: "detached" });
    await p.page.locator('[data-testid="test-group"][data-test="test_broken"]').waitFor();
  });
});

test("a permalink round-trips the file, stage and view", async () => {
  let link;
  const name = "test_shared_ünïcode.py";
  const text =
    "# a file of our own: ünïcode ✓ and an emoji 🧪\nfrom solution import add\n\n\ndef test_add():\n    total = add(2, 3)\n    assert total == 5\n\n\ndef test_more():\n    assert add(\"é\", \"🧪\") == \"é🧪\"\n";
  await withPage({}, async (p) => {
    await p.tid("problem-picker").selectOption("__scratch__");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
    await p.tid("file-name").fill(name);
    await p.tid("file-name").press("Enter");
    await p.page.waitForFunction((n) => window.__benchExplorer.currentFile === n, name);
    await p.setText(text);
    await p.tid("stage-six-shapes").check();
    await waitStage(p, "six-shapes");
    // Pick the second assertion, then go to the audit tab.
    await p.tid("assertion-row").nth(1).click();
    await p.page.waitForFunction(() => document.querySelectorAll('[data-testid="assertion-row"].selected').length === 1);
    await p.tid("tab-audit").click();
    await p.tid("audit-table").waitFor();
    await p.tid("permalink-button").click();
    await p.page.waitForFunction(() => typeof window.__benchExplorer.lastPermalink === "string");
    link = await p.hook("lastPermalink");
    assert.ok(link.startsWith(`${p.origin}/#s=`), link);
    assert.equal(new URL(p.page.url()).hash, new URL(link).hash, "the address bar holds the permalink");
    await p.tid("toast").filter({ hasText: "Permalink" }).waitFor();
  });

  // A fresh browser context (no storage) opens the link.
  await withPage({ hash: new URL(link).hash }, async (p) => {
    await waitStage(p, "six-shapes");
    assert.equal(await p.getText(), text);
    assert.equal(await p.tid("file-name").inputValue(), name);
    assert.equal(await p.hook("currentFile"), name);
    assert.equal(await p.tid("problem-picker").inputValue(), "__scratch__");
    assert.ok(await p.tid("stage-six-shapes").isChecked());
    assert.equal(await p.tid("tab-audit").getAttribute("aria-selected"), "true");
    assert.equal(await p.tid("audit-table").getAttribute("data-stage"), "six-shapes");
    await p.tid("tab-assertions").click();
    await p.page.locator('[data-testid="assertion-row"][data-row-index="1"].selected').waitFor();
  });

  // A bench problem, unchanged, at another stage and tab: the link carries no source.
  await withPage({}, async (p) => {
    await p.tid("problem-picker").selectOption("clean_phone");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_clean_phone.py");
    await p.tid("stage-as-written").check();
    await waitStage(p, "as-written");
    await p.tid("tab-problem").click();
    await p.tid("problem-view").waitFor();
    await p.tid("permalink-button").click();
    await p.page.waitForFunction(() => typeof window.__benchExplorer.lastPermalink === "string");
    link = await p.hook("lastPermalink");
    assert.ok(link.length < 200, `a bench file's link should not carry the file: ${link.length} characters`);
  });
  await withPage({ hash: new URL(link).hash }, async (p) => {
    await waitStage(p, "as-written");
    assert.equal(await p.hook("currentFile"), "test_clean_phone.py");
    assert.equal(await p.tid("problem-picker").inputValue(), "clean_phone");
    assert.equal(await p.getText(), benchTest("clean_phone").text);
    assert.equal(await p.tid("tab-problem").getAttribute("aria-selected"), "true");
    await p.tid("problem-view").waitFor();
  });

  // A broken link leaves a usable page with a message.
  await withPage({ hash: "#s=not-lz-string!!" }, async (p) => {
    await p.tid("toast").filter({ hasText: "permalink" }).waitFor();
    assert.equal(await p.hook("currentFile"), "test_word_ladder.py");
  });
});

test("the stage switch changes what is kept (word_ladder: as written vs faithful)", async () => {
  await withPage({}, async (p) => {
    assert.equal(await p.tid("problem-picker").inputValue(), "word_ladder");
    await waitStage(p, "full");
    const full = await exprs(p);
    assert.equal(full.length, 7);
    for (const e of full) assert.match(e, /^word_ladder\(/);
    assert.equal(await p.tid("wrong-count").count(), 0, "no wrong checks under the faithful stage");

    await p.tid("stage-as-written").check();
    await waitStage(p, "as-written");
    await p.page.waitForFunction(() => Number(document.querySelector('[data-testid="wrong-count"]')?.textContent) > 0);
    const written = await exprs(p);
    // As written, the asserts are taken verbatim: `result` is a name that does not exist where they run.
    assert.ok(written.includes("result == 5"), written.join("\n"));
    assert.ok(written.filter((e) => /^result ==/.test(e)).length >= 6, written.join("\n"));
    assert.notDeepEqual(written, full);
    const wrong = Number(await p.tid("wrong-count").textContent());
    assert.ok(wrong >= 6, `wrong checks: ${wrong}`);
    assert.ok((await p.tid("verdict").count()) >= 6);
    assert.match(await p.tid("stage-blurb").textContent(), /\S/);
    await p.shot("stage-as-written");

    // After the write-up's six-shape fix they check the real call again.
    await p.tid("stage-six-shapes").check();
    await waitStage(p, "six-shapes");
    const six = await exprs(p);
    assert.ok(six.every((e) => !/^result ==/.test(e)), six.join("\n"));

    // Across the bench: the audit follows the stage.
    await p.tid("tab-audit").click();
    await p.page.waitForFunction(() => document.querySelector('[data-testid="audit-table"]')?.dataset.stage === "six-shapes");
    const row = p.page.locator('[data-testid="audit-row"][data-slug="word_ladder"]');
    const keptSix = await row.getAttribute("data-kept");
    await p.tid("stage-as-written").check();
    await p.page.waitForFunction(() => document.querySelector('[data-testid="audit-table"]')?.dataset.stage === "as-written");
    const wrongAudit = Number(await row.locator('[data-testid="audit-wrong"]').textContent());
    assert.ok(wrongAudit >= 6, `audit wrong checks for word_ladder: ${wrongAudit}`);
    assert.ok(keptSix !== null);
    await p.shot("audit-as-written");
  });
});

// ---- safety -------------------------------------------------------------------------------------

test("the page asks no other host for anything", async () => {
  await withPage({}, async (p) => {
    const asked = [];
    p.page.on("request", (r) => asked.push(r.url()));
    // Visit every view, a teaching page and a statement.
    for (const tab of ["problem", "audit", "shapes", "run", "assertions"]) {
      await p.tid(`tab-${tab}`).click();
      await p.page.waitForFunction((t) => document.querySelector(`[data-testid="tab-${t}"]`).getAttribute("aria-selected") === "true", tab);
    }
    await p.tid("shape-badge").first().click();
    await p.tid("shape-page").waitFor();
    await p.tid("download-json").click();
    assert.deepEqual(p.offHost, []);
    const foreign = asked.filter((u) => !u.startsWith(p.origin + "/") && !/^(data|blob):/.test(u));
    assert.deepEqual(foreign, []);
    // And the server saw only the build's own files.
    for (const r of session.server.requests) assert.ok(!r.includes(".."), r);
    // The Content-Security-Policy is in place.
    const csp = await p.page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
    assert.match(csp, /default-src 'self'/);
    assert.doesNotMatch(csp, /'unsafe-inline'|'unsafe-eval'/);
  });
});

test("text from a file is rendered as text, never as HTML", async () => {
  await withPage({}, async (p) => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const text = [
      `# a comment ${evil} <script>window.__pwned=2</script>`,
      "from solution import render",
      "",
      `BANNER = "${evil.replace(/"/g, "'")}"`,
      "",
      "",
      "def test_markup():",
      `    html = render("${evil.replace(/"/g, "'")}<b>bold</b>")`,
      `    assert html == "&lt;img&gt; <i>${evil.replace(/"/g, "'")}</i>"`,
      "",
      "",
      "def test_constant():",
      "    assert render(BANNER) == BANNER",
      "",
      "",
      "def test_unknown():",
      "    assert some_unknown_name == '<b>x</b>'",
      "",
    ].join("\n");
    // A file of our own (not a bench problem), so that the slug comes from the file name.
    await p.tid("problem-picker").selectOption("__scratch__");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
    await p.tid("file-name").fill("test_<img src=x onerror=window.__pwned=3>.py");
    await p.tid("file-name").press("Enter");
    await p.setText(text);
    await p.page.locator('[data-testid="test-group"][data-test="test_markup"]').waitFor();
    const shown = await exprs(p);
    assert.ok(shown.some((e) => e.includes("<img src=x onerror='window.__pwned=1'>")), shown.join("\n"));
    assert.ok(shown.some((e) => e.includes("<i>") && e.includes("<b>bold</b>")), shown.join("\n"));
    // A folded constant and a dropped row's source, literally.
    assert.ok(shown.some((e) => e.startsWith("render(\"<img src=x")), shown.join("\n"));
    await p.page.locator('[data-testid="assertion-row"][data-test="test_unknown"] code.source', { hasText: "'<b>x</b>'" }).waitFor();
    // The slug (from the file name) is shown literally too.
    await p.tid("summary").locator("code", { hasText: "<img" }).waitFor();
    // Switch through every stage and view that shows file-derived text.
    for (const stage of ["as-written", "six-shapes", "seven-shapes", "full"]) {
      await p.tid(`stage-${stage}`).check();
      await waitStage(p, stage);
    }
    for (const tab of ["problem", "audit", "run", "assertions"]) await p.tid(`tab-${tab}`).click();
    const found = await p.page.evaluate(() => {
      const roots = [document, ...[...document.querySelectorAll("*")].filter((e) => e.shadowRoot).map((e) => e.shadowRoot)];
      const count = (sel) => roots.reduce((n, r) => n + r.querySelectorAll(sel).length, 0);
      return { img: count("img"), script: count("body script"), b: count(".tab-body b, .tab-body i"), pwned: window.__pwned ?? null };
    });
    assert.deepEqual(found, { img: 0, script: 0, b: 0, pwned: null });
  });
});

test("a deeply nested expression leaves a usable page with a message", async () => {
  await withPage({}, async (p) => {
    const normal = "from solution import f\n\n\ndef test_fine():\n    assert f(1) == 1\n";
    const cases = {
      parentheses: "    assert f(" + "(".repeat(20000) + "1" + ")".repeat(20000) + ") == 1\n",
      lists: "    assert f(" + "[".repeat(20000) + "]".repeat(20000) + ")\n",
      unary: "    assert " + "-".repeat(50000) + "1 == 1\n",
      not: "    assert " + "not ".repeat(20000) + "f(1)\n",
      unclosed: "    assert f(" + "(".repeat(20000) + "\n",
      chain: "    assert " + Array(50000).fill("f(1)").join(" + ") + " == 1\n",
    };
    for (const [what, line] of Object.entries(cases)) {
      const text = normal + `\n\ndef test_deep_${what}():\n` + line;
      await p.setText(text);
      // Something visible says what happened to the deep statement; the rest of the file is extracted.
      await p.page.locator('[data-testid="test-group"][data-test="test_fine"]').waitFor();
      const message =
        (await p.tid("syntax-error").count()) > 0 ||
        (await p.page.locator(`[data-testid="test-group"][data-test="test_deep_${what}"] [data-testid="assertion-reason"]`).count()) > 0;
      assert.ok(message, `${what}: no message for the deep statement`);
      assert.equal(await p.page.locator("#fatal").isVisible(), false, `${what}: fatal banner`);
      // A line this long is not parsed for colours (that took the page's thread for over 50 ms).
      assert.equal(await p.page.evaluate(() => window.__benchExplorer.editor.mode()), "large", `${what}: editor mode`);
      if (what === "parentheses") {
        await p.tid("syntax-error").filter({ hasText: /nest|deep/i }).first().waitFor();
        await p.shot("deep-nesting");
      }
    }
    // A chain of inlined assignments builds a deep expression in the result: still shown.
    const chain = "def test_chain():\n    v0 = 1\n" + Array.from({ length: 3000 }, (_, i) => `    v${i + 1} = v${i} + 1\n`).join("") + "    assert v3000 == 3001\n";
    await p.setText(chain);
    await p.page.locator('[data-testid="test-group"][data-test="test_chain"]').waitFor();
    // Many short lines are an ordinary document: highlighted again.
    assert.equal(await p.page.evaluate(() => window.__benchExplorer.editor.mode()), "normal");
    // The page still works afterwards.
    await p.setText(normal);
    await p.page.getByText("f(1) == 1", { exact: true }).waitFor();
    assert.equal(await p.page.locator("#fatal").isVisible(), false);
  });
});

test("a multi-megabyte file opened from disk leaves a usable page", async () => {
  await withPage({}, async (p) => {
    const big = synthTestFile(120_000);
    assert.ok(big.length > 3_000_000, `${big.length} bytes`);
    const before = await p.extractions();
    await p.tid("file-input").setInputFiles({ name: "test_big.py", mimeType: "text/x-python", buffer: Buffer.from(big) });
    await p.tid("toast").filter({ hasText: "Opened test_big.py" }).waitFor();
    await p.waitForExtraction(before, 60000);
    await p.page.waitForFunction((n) => window.__benchExplorer.lastBytes === n, big.length, { timeout: 60000 });
    assert.equal(await p.tid("file-name").inputValue(), "test_big.py");
    const total = Number(await p.tid("assertion-count").textContent());
    assert.ok(total > 30_000, `${total} assertions`);
    await p.tid("show-more").waitFor();
    await p.tid("extraction-ms").filter({ hasText: "extracted in" }).waitFor();
    assert.equal(await p.page.locator("#fatal").isVisible(), false);
    await p.shot("multi-megabyte");
    // Still responsive: an edit at the end is extracted and shown.
    const n = await p.extractions();
    await p.page.locator('[data-testid="editor-content"]').focus();
    await p.page.keyboard.press("Control+End");
    await p.page.keyboard.type("\n# typed at the end");
    await p.waitForExtraction(n, 60000);
    await p.page.waitForFunction((n) => window.__benchExplorer.lastBytes > n, big.length);
    // A small file afterwards is quick again.
    await p.setText("def test_small():\n    assert 2 == 2\n");
    await p.page.getByText("2 == 2", { exact: true }).waitFor();

    // A file in another encoding, declared as PEP 263 says: read as Python reads it.
    const latin1 = Buffer.from("# -*- coding: latin-1 -*-\nfrom solution import greet\n\ndef test_greet():\n    assert greet('Ren\xe9') == 'Bonjour Ren\xe9'\n", "latin1");
    let m = await p.extractions();
    await p.tid("file-input").setInputFiles({ name: "test_latin1.py", mimeType: "text/x-python", buffer: latin1 });
    await p.tid("toast").filter({ hasText: "Opened test_latin1.py" }).waitFor();
    await p.waitForExtraction(m);
    await p.page.getByText("greet('René') == 'Bonjour René'", { exact: true }).waitFor();
    // Bytes Python would refuse (no declaration, not UTF-8) are shown, and the toast says so.
    m = await p.extractions();
    await p.tid("file-input").setInputFiles({ name: "test_bad.py", mimeType: "text/x-python", buffer: Buffer.from("x = '\xe9'\n", "latin1") });
    await p.tid("toast").filter({ hasText: "which Python would not read" }).waitFor();
    await p.waitForExtraction(m);
    await p.setText("def test_small():\n    assert 2 == 2\n");
    await p.page.getByText("2 == 2", { exact: true }).waitFor();

    // Over the limit (16 MB): refused with a message, the page unchanged.
    await p.tid("file-input").setInputFiles({ name: "test_huge.py", mimeType: "text/x-python", buffer: Buffer.alloc(17 * 1024 * 1024, 0x20) });
    await p.tid("toast").filter({ hasText: "too large" }).waitFor();
    assert.equal(await p.getText(), "def test_small():\n    assert 2 == 2\n");
  });
});

test("a wasm panic leaves a usable page with a visible message", async () => {
  await withPage({ allow: [/unreachable|simulated panic|internal error|panicked/i] }, async (p) => {
    const text = "def test_mine():\n    assert 40 + 2 == 42\n";
    await p.setText(text);
    await p.page.evaluate(() => {
      try {
        window.__benchExplorer.simulatePanic();
      } catch {}
    });
    const banner = p.tid("fatal-banner");
    await banner.waitFor();
    assert.match(await banner.textContent(), /Something went wrong/);
    // The last result stays on screen.
    assert.ok(await p.page.getByText("40 + 2 == 42", { exact: true }).isVisible());
    await p.shot("panic-banner");
    // Reload keeping the file: it comes back with live extraction paused.
    await banner.getByRole("button", { name: /Reload/ }).click();
    await p.tid("paused-notice").waitFor();
    assert.equal(await p.getText(), text);
    await p.tid("paused-notice").getByRole("button").click();
    await p.page.getByText("40 + 2 == 42", { exact: true }).waitFor();
  });
});

// ---- keyboard, narrow screens, dark mode --------------------------------------------------------

test("keyboard alone reaches and works the problem picker, stage switch and results", async () => {
  await withPage({}, async (p) => {
    const { page } = p;
    const reached = [];
    const tabTo = async (pred, max = 80) => {
      for (let i = 0; i < max; i++) {
        await page.keyboard.press("Tab");
        const id = await focusedTestId(page);
        reached.push(id);
        if (pred(id)) return id;
      }
      throw new Error(`not reached by Tab; went through: ${reached.join(", ")}`);
    };
    await page.locator("body").focus();
    // Stage switch: arrow keys move between the stages.
    await tabTo((id) => id && id.startsWith("stage-"));
    const stageFocused = await focusedTestId(page);
    assert.equal(stageFocused, "stage-full");
    await page.keyboard.press("ArrowLeft");
    await waitStage(p, "seven-shapes");
    await page.keyboard.press("ArrowLeft");
    await waitStage(p, "six-shapes");
    // Problem picker.
    await tabTo((id) => id === "problem-picker");
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => window.__benchExplorer.currentFile !== "test_word_ladder.py");
    const picked = await p.tid("problem-picker").inputValue();
    assert.notEqual(picked, "word_ladder");
    await page.keyboard.press("ArrowUp");
    await page.waitForFunction(() => window.__benchExplorer.currentFile === "test_word_ladder.py");
    // Through the editor to the results' tabs, then a row.
    await tabTo((id) => id === "tab-assertions");
    await page.keyboard.press("ArrowRight");
    await p.tid("problem-view").waitFor();
    assert.equal(await focusedTestId(page), "tab-problem");
    await page.keyboard.press("ArrowLeft");
    await p.tid("assertions-view").waitFor();
    await tabTo((id) => id === "assertion-row");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.classList.contains("selected"));
    const first = await page.evaluate(() => document.activeElement.dataset.rowIndex);
    await page.keyboard.press("ArrowDown");
    const second = await page.evaluate(() => document.activeElement.dataset.rowIndex);
    assert.notEqual(first, second);
    // Focus is visible (an outline or a ring).
    const ring = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement);
      return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== "none";
    });
    assert.ok(ring, "the focused row has no visible focus indicator");
    await p.shot("keyboard-focus");
    assert.ok(reached.includes("in:editor") || reached.includes("editor-content"), `the editor is in the tab order: ${reached.join(", ")}`);
  });
});

test("a narrow screen (390 px) has no horizontal overflow", async () => {
  await withPage({ viewport: { width: 390, height: 844 } }, async (p) => {
    const check = async (what) => {
      const o = await p.page.evaluate(() => ({
        doc: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
        inner: window.innerWidth,
      }));
      assert.ok(o.doc <= o.inner && o.body <= o.inner, `${what}: ${JSON.stringify(o)}`);
      for (const id of ["problem-picker", "stage-switch", "tabs", "theme-toggle", "permalink-button"]) {
        const box = await p.tid(id).boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= o.inner + 0.5, `${what}: ${id} at ${JSON.stringify(box)}`);
      }
    };
    await check("assertions");
    await p.shot("narrow-assertions", { fullPage: true });
    await p.tid("stage-as-written").check();
    await waitStage(p, "as-written");
    await check("as written");
    for (const tab of ["problem", "audit", "shapes"]) {
      await p.tid(`tab-${tab}`).click();
      await p.tid(`${tab === "audit" ? "audit" : tab === "problem" ? "problem" : "shapes"}-view`).waitFor();
      await check(tab);
    }
    await p.shot("narrow-shapes", { fullPage: true });
  });
  // The intro too.
  await withPage({ viewport: { width: 390, height: 844 }, intro: true }, async (p) => {
    await p.tid("intro").waitFor();
    const o = await p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(o <= 0, `intro overflows by ${o}px`);
  });
});

test("dark mode toggles, is remembered, and follows the system setting", async () => {
  await withPage({}, async (p) => {
    const bg = () => p.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(await p.page.getAttribute("html", "data-theme"), "light");
    const light = await bg();
    await p.tid("theme-toggle").click();
    await p.page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    const dark = await bg();
    assert.notEqual(dark, light);
    // The editor (in its shadow root) follows the page's variables.
    const editorBg = await p.page.evaluate(() => getComputedStyle(document.querySelector('[data-testid="editor"]').shadowRoot.querySelector(".cm-editor")).backgroundColor);
    assert.notEqual(editorBg, "rgb(255, 255, 255)");
    await p.shot("dark-assertions");
    await p.page.reload();
    await p.waitReady();
    assert.equal(await p.page.getAttribute("html", "data-theme"), "dark");
    await p.tid("theme-toggle").click();
    await p.page.waitForFunction(() => document.documentElement.dataset.theme === "light");
  });
  await withPage({ colorScheme: "dark" }, async (p) => {
    assert.equal(await p.page.getAttribute("html", "data-theme"), "dark");
    await p.tid("stage-as-written").check();
    await waitStage(p, "as-written");
    await p.shot("dark-as-written");
  });
});

// ---- the first visit, the main views, the README's screenshot -------------------------------------

test("first visit: the introduction leads to word_ladder as written", async () => {
  await withPage({ intro: true }, async (p) => {
    await p.tid("intro").waitFor();
    await p.shot("intro");
    await p.tid("intro-try").click();
    await waitStage(p, "as-written");
    await p.tid("intro").waitFor({ state: "detached" });
    assert.equal(await p.hook("currentFile"), "test_word_ladder.py");
    await p.page.waitForFunction(() => document.activeElement?.dataset.testid === "stage-as-written");
  });
});

test("main views (screenshots) and the README screenshot", async () => {
  await withPage({ viewport: { width: 1440, height: 900 } }, async (p) => {
    await p.tid("problem-picker").selectOption("clean_phone");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_clean_phone.py");
    await p.tid("tab-problem").click();
    await p.tid("statement-compare").waitFor();
    await p.tid("statement-original").waitFor();
    await p.tid("statement-fixed").waitFor();
    await p.shot("problem-clean_phone");
    await p.tid("tab-audit").click();
    await p.tid("audit-totals").waitFor();
    assert.equal(await p.tid("audit-row").count(), 21);
    await p.shot("audit-full");
    await p.tid("tab-shapes").click();
    await p.tid("shape-page").waitFor();
    await p.shot("shapes");

    // The README's screenshot: word_ladder as written, the first wrong check picked, so that its
    // lines light up in the editor.
    await p.tid("problem-picker").selectOption("word_ladder");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_word_ladder.py");
    await p.tid("stage-as-written").check();
    await waitStage(p, "as-written");
    await p.tid("tab-assertions").click();
    const row = p.page.locator('[data-testid="assertion-row"][data-test="test_classic_hit_to_cog"]').first();
    await row.click();
    await p.page.waitForFunction(() => document.querySelectorAll('[data-testid="assertion-row"].selected').length === 1);
    await p.page.mouse.move(0, 899);
    await p.page.evaluate(() => document.activeElement?.blur());
    await p.page.locator("#results .tab-body").evaluate((el) => (el.scrollTop = 0));
    await p.page.evaluate(() => {
      document.querySelector('[data-testid="editor"]').shadowRoot.querySelector(".cm-scroller").scrollTop = 0;
    });
    await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await p.shot("readme-word_ladder-as-written");
    mkdirSync(path.join(ROOT, "docs"), { recursive: true });
    // The timing and Python's loading state vary run to run, so they are masked; a few pixels of
    // rendering noise (a button's transition) are tolerated, so the committed image changes only
    // when the page does.
    const fresh = await p.page.screenshot({
      mask: [p.page.locator('[data-testid="extraction-ms"]'), p.page.locator('[data-testid="py-dot"]')],
      maskColor: "#eef1f5",
    });
    // The test fails when the page no longer looks like the committed image; `bash
    // scripts/screenshot.sh` (UPDATE_SCREENSHOT=1) writes the new one after a change meant to show.
    const target = path.join(ROOT, "docs", "screenshot.png");
    if (process.env.UPDATE_SCREENSHOT === "1") {
      writeFileSync(target, fresh);
      return;
    }
    const freshCopy = path.join(ROOT, "test-artifacts", "e2e", "readme-screenshot-fresh.png");
    writeFileSync(freshCopy, fresh);
    assert.ok(existsSync(target), "docs/screenshot.png is missing: bash scripts/screenshot.sh writes it");
    const differing = differingPixels(readFileSync(target), fresh);
    assert.ok(
      differing <= 500,
      `the page differs from docs/screenshot.png in ${differing} pixels (the fresh one is ${freshCopy}); ` +
        "if the change is meant, bash scripts/screenshot.sh refreshes it",
    );
  });
});

/** Pixels that differ between two PNG screenshots of the same size (Infinity if sizes differ). */
function differingPixels(a, b) {
  const decode = (png) => {
    let i = 8;
    let width = 0, height = 0, colorType = 0;
    const idat = [];
    while (i < png.length) {
      const length = png.readUInt32BE(i);
      const type = png.toString("ascii", i + 4, i + 8);
      const data = png.subarray(i + 8, i + 8 + length);
      if (type === "IHDR") {
        width = data.readUInt32BE(0);
        height = data.readUInt32BE(4);
        colorType = data[9];
      }
      if (type === "IDAT") idat.push(data);
      i += 12 + length;
    }
    return { width, height, bpp: colorType === 6 ? 4 : 3, raw: inflateSync(Buffer.concat(idat)) };
  };
  const x = decode(a), y = decode(b);
  if (x.width !== y.width || x.height !== y.height || x.bpp !== y.bpp) return Infinity;
  const px = unfilter(x), py = unfilter(y);
  let diff = 0;
  for (let k = 0; k < px.length; k += x.bpp) {
    for (let c = 0; c < x.bpp; c++) {
      if (px[k + c] !== py[k + c]) {
        diff++;
        break;
      }
    }
  }
  return diff;
}

/** PNG scanline unfiltering (None, Sub, Up, Average, Paeth) into raw pixel bytes. */
function unfilter({ width, height, bpp, raw }) {
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let row = 0; row < height; row++) {
    const filter = raw[row * (stride + 1)];
    const line = raw.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const left = i >= bpp ? out[row * stride + i - bpp] : 0;
      const up = row > 0 ? out[(row - 1) * stride + i] : 0;
      const upLeft = row > 0 && i >= bpp ? out[(row - 1) * stride + i - bpp] : 0;
      let v = line[i];
      if (filter === 1) v += left;
      else if (filter === 2) v += up;
      else if (filter === 3) v += (left + up) >> 1;
      else if (filter === 4) {
        const p = left + up - upLeft;
        const pa = Math.abs(p - left), pb = Math.abs(p - up), pc = Math.abs(p - upLeft);
        v += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      out[row * stride + i] = v & 0xff;
    }
  }
  return out;
}
