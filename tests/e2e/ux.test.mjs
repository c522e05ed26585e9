// End-to-end tests of the page as a playground: the session kept across reloads, the address bar
// following the view (back/forward), permalinks the page can always open, downloads that say what
// they did, the layout at 1280×800 and 390×844, editor marks, settings, contrast.
// Against the release build (env E2E_DIST, default dist/). Run: node --test tests/e2e/ux.test.mjs

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { startSession, ROOT } from "./harness.mjs";

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

const benchTest = (slug) => {
  const dir = path.join(ROOT, "problems", slug);
  const name = readdirSync(dir).find((f) => /^test_.*\.py$/.test(f));
  return { name, text: readFileSync(path.join(dir, name), "utf8") };
};

const waitStage = (p, stage) =>
  p.page.waitForFunction((s) => window.__benchExplorer.stage === s && window.__benchExplorer.currentStage === s, stage);

/** Wait until the session kept in local storage has these fields (c: the file, s: stage, t: tab…). */
async function waitSaved(p, want) {
  await p.page.waitForFunction((w) => {
    const s = JSON.parse(localStorage.getItem("bench-explorer:session") || "{}");
    return Object.entries(w).every(([k, v]) => s[k] === v);
  }, want);
}

const hash = (p) => new URL(p.page.url()).hash;

// ---- it loses no work ---------------------------------------------------------------------------

test("a reload brings back the edited file, problem, stage, tab and the Run tab's solution", async () => {
  await withPage({}, async (p) => {
    const { name, text } = benchTest("lru_cache");
    await p.tid("problem-picker").selectOption("lru_cache");
    await p.page.waitForFunction((n) => window.__benchExplorer.currentFile === n, name);
    const edited = text + "\n\ndef test_kept_across_reloads():\n    assert 1 + 1 == 2\n";
    await p.setText(edited);
    await p.tid("modified").waitFor();
    await p.tid("stage-six-shapes").check();
    await waitStage(p, "six-shapes");
    await p.tid("tab-run").click();
    await p.tid("run-solution-select").selectOption("stub");
    await p.tid("tab-audit").click();
    await p.tid("audit-table").waitFor();
    await waitSaved(p, { p: "lru_cache", c: edited, s: "six-shapes", t: "audit", r: "stub" });
    // The address bar follows the view and never carries the code.
    assert.equal(hash(p), "#view?p=lru_cache&s=six-shapes&t=audit");

    await p.page.reload();
    await p.waitReady();
    await waitStage(p, "six-shapes");
    assert.equal(await p.getText(), edited);
    assert.equal(await p.tid("problem-picker").inputValue(), "lru_cache");
    assert.equal(await p.tid("file-name").inputValue(), name);
    assert.ok(await p.tid("stage-six-shapes").isChecked());
    assert.equal(await p.tid("tab-audit").getAttribute("aria-selected"), "true");
    await p.tid("modified").waitFor();
    await p.tid("tab-run").click();
    assert.equal(await p.tid("run-solution-select").inputValue(), "stub");
    await p.page.locator('[data-testid="test-group"]').first().waitFor({ state: "attached" }).catch(() => {});
  });
});

test("a pasted file survives a reload too", async () => {
  await withPage({}, async (p) => {
    await p.tid("problem-picker").selectOption("__scratch__");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
    const text = "from solution import twice\n\ndef test_twice():\n    x = twice(4)\n    assert x == 8\n";
    await p.setText(text);
    await waitSaved(p, { c: text, f: "test_scratch.py" });
    assert.equal(hash(p), "#view");
    await p.page.reload();
    await p.waitReady();
    assert.equal(await p.getText(), text);
    assert.equal(await p.tid("problem-picker").inputValue(), "__scratch__");
  });
});

test("back and forward move between views", async () => {
  await withPage({}, async (p) => {
    assert.equal(hash(p), "#view?p=word_ladder");
    await p.tid("tab-audit").click();
    await p.page.waitForFunction(() => location.hash === "#view?p=word_ladder&t=audit");
    await p.tid("stage-as-written").check();
    await p.page.waitForFunction(() => location.hash === "#view?p=word_ladder&s=as-written&t=audit");
    await p.tid("problem-picker").selectOption("clean_phone");
    await p.page.waitForFunction(() => location.hash === "#view?p=clean_phone&s=as-written&t=audit");

    await p.page.goBack();
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_word_ladder.py");
    assert.equal(await p.tid("problem-picker").inputValue(), "word_ladder");
    await p.page.goBack();
    await waitStage(p, "full");
    assert.equal(await p.tid("tab-audit").getAttribute("aria-selected"), "true");
    await p.page.goBack();
    await p.page.waitForFunction(() => document.querySelector('[data-testid="tab-assertions"]').getAttribute("aria-selected") === "true");
    await p.page.goForward();
    await p.page.waitForFunction(() => document.querySelector('[data-testid="tab-audit"]').getAttribute("aria-selected") === "true");
    // Going back did not add history entries of its own.
    assert.equal(await p.page.evaluate(() => history.length), 5);
  });
});

test("a view URL opens that view in a fresh browser", async () => {
  await withPage({ hash: "#view?p=clean_phone&s=as-written&t=problem" }, async (p) => {
    await waitStage(p, "as-written");
    assert.equal(await p.hook("currentFile"), "test_clean_phone.py");
    assert.equal(await p.getText(), benchTest("clean_phone").text);
    await p.tid("problem-view").waitFor();
  });
});

test("a dropped check links to its rule's page, and the address bar can open a rule", async () => {
  await withPage({}, async (p) => {
    await p.tid("problem-picker").selectOption("__scratch__");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
    const n = await p.extractions();
    await p.setText("from solution import add\n\ndef test_add():\n    n = 0\n    while n < 2:\n        n += 1\n        assert add(n, 0) == n\n");
    await p.waitForExtraction(n);
    const link = p.tid("rule-link").first();
    const code = await link.getAttribute("data-rule");
    assert.match(code, /^[A-Z]\d{3}$/);
    // The header groups the drops by rule, each a link to its page.
    await p.tid("dropped-by-rule").locator("summary").click();
    assert.equal(await p.tid("dropped-by-rule").locator(`[data-rule="${code}"]`).count(), 1);
    await link.click();
    await p.page.locator(`[data-testid="rule-page"][data-rule="${code}"]`).waitFor();
    for (const section of ["What it means", "Why it cannot be kept", "Example", "How to write it so it can be checked"]) {
      await p.page.locator('[data-testid="rule-page"] h4', { hasText: section }).first().waitFor();
    }
    await p.page.waitForFunction((c) => location.hash.endsWith(`t=shapes&h=${c}`), code);
    // A shape's page from the nav leaves the rule.
    await p.tid("shape-nav-variable-then-assert").click();
    await p.tid("shape-page").waitFor();
  });
  await withPage({ hash: "#rule/N006" }, async (p) => {
    await p.page.locator('[data-testid="rule-page"][data-rule="N006"]').waitFor();
    assert.equal(await p.page.locator('[data-testid="rule-nav-N006"]').getAttribute("aria-current"), "page");
  });
});

// ---- links the page can open, downloads that say what they did -----------------------------------

test("a file too large for a permalink gets no link, and the file is offered instead", async () => {
  await withPage({}, async (p) => {
    // 5 MB: one comment line (cheap to extract) and a test.
    const text = "# " + "0123456789abcdef".repeat(5 * 1024 * 1024 / 16) + "\ndef test_a():\n    assert 1 == 1\n";
    await p.tid("problem-picker").selectOption("__scratch__");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
    await p.setText(text, { timeout: 60000 });
    const before = hash(p);
    await p.tid("permalink-button").click();
    await p.tid("permalink-refused").waitFor();
    const message = await p.tid("permalink-refused").textContent();
    assert.match(message, /No permalink: this file is 5\.0 MB/);
    assert.equal(await p.hook("lastPermalink"), undefined, "no link was made");
    assert.equal(hash(p), before, "the address bar does not get a link the page would refuse");
    const [download] = await Promise.all([p.page.waitForEvent("download"), p.tid("permalink-download-file").click()]);
    assert.equal(download.suggestedFilename(), "test_scratch.py");
    const file = await download.path();
    assert.equal(statSync(file).size, Buffer.byteLength(text));
    await p.tid("toast").filter({ hasText: "Downloaded test_scratch.py" }).waitFor();
    await p.tid("permalink-refused").waitFor({ state: "detached" });
  });
});

test("the JSON download of one test with 2,000 put/assert pairs is the whole extraction", async () => {
  await withPage({}, async (p) => {
    let text = "from solution import LRUCache\n\n\ndef test_many():\n    c = LRUCache(4000)\n";
    for (let i = 0; i < 2000; i++) text += `    c.put(${i}, ${i})\n    assert c.get(${i}) == ${i}\n`;
    await p.tid("problem-picker").selectOption("__scratch__");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
    await p.setText(text, { timeout: 180000 });
    await p.page.waitForFunction(() => window.__benchExplorer.lastBytes > 50000, null, { timeout: 180000 });
    const [download] = await Promise.all([
      p.page.waitForEvent("download", { timeout: 180000 }),
      p.tid("download-json").click(),
    ]);
    assert.equal(download.suggestedFilename(), "test_scratch.full.extraction.json");
    const file = await download.path();
    const size = statSync(file).size;
    assert.ok(size > 0, "the JSON file is empty");
    const json = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(json.assertions.length, 2000);
    assert.equal((await p.hook("lastDownload")).bytes, size);
    await p.tid("toast").filter({ hasText: "Downloaded test_scratch.full.extraction.json" }).waitFor();
  });
});

// ---- what matters stays in view -------------------------------------------------------------------

test("first visit at 1280×800: the intro is a banner and the first result is in view", async () => {
  await withPage({ intro: true }, async (p) => {
    await p.tid("intro").waitFor();
    const intro = await p.tid("intro").boundingBox();
    const row = await p.tid("assertion-row").first().boundingBox();
    console.log(`[layout] intro ${Math.round(intro.height)} px high; first result at y=${Math.round(row.y)}`);
    assert.ok(intro.height <= 90, `the intro takes ${intro.height}px`);
    assert.ok(row.y + row.height <= 800, `the first result starts at y=${row.y} (height ${row.height})`);
    // The story is one click away, and the banner still leads to word_ladder as written.
    await p.tid("intro-more").locator("summary").click();
    await p.tid("intro-more").getByText("seven shapes").waitFor();
    await p.tid("intro-try").click();
    await waitStage(p, "as-written");
    await p.tid("intro").waitFor({ state: "detached" });
  });
});

test("a narrow screen (390×844): editor and results on screen, every tab and Run reachable", async () => {
  await withPage({ viewport: { width: 390, height: 844 } }, async (p) => {
    const inView = async (loc, what) => {
      const b = await loc.boundingBox();
      assert.ok(b, `${what} is not shown`);
      assert.ok(b.x >= 0 && b.x + b.width <= 390.5 && b.y >= 0 && b.y + b.height <= 844.5, `${what} at ${JSON.stringify(b)}`);
      return b;
    };
    const editor = await inView(p.tid("editor"), "the editor");
    const results = await p.tid("tabs").boundingBox();
    console.log(`[layout] 390×844: editor at y=${Math.round(editor.y)}, results at y=${Math.round(results.y)}`);
    for (const t of ["assertions", "problem", "audit", "shapes", "run"]) await inView(p.tid(`tab-${t}`), `tab ${t}`);
    await inView(p.tid("narrow-run"), "Run");
    await inView(p.tid("summary"), "the results' summary");
    // Give the room to the results: the editor goes, its bar stays; then to the editor.
    await p.tid("narrow-results").click();
    await p.tid("editor").waitFor({ state: "hidden" });
    await inView(p.tid("problem-picker"), "the problem picker");
    const first = await p.tid("assertion-row").first().boundingBox();
    console.log(`[layout] 390×844, results view: first result at y=${Math.round(first.y)}`);
    assert.ok(first.y < 780, `the first result starts at y=${first.y}`);
    await p.tid("narrow-editor").click();
    await p.tid("editor").waitFor();
    const big = await p.tid("editor").boundingBox();
    assert.ok(big.height > editor.height + 150, `the editor grows: ${editor.height} → ${big.height}`);
    // A tab picked while the editor has the room shows the results.
    await p.tid("tab-audit").click();
    await p.tid("audit-view").waitFor();
    const audit = await p.tid("audit-view").boundingBox();
    assert.ok(audit.y >= 0 && audit.y < 700, `the audit starts at y=${audit.y}`);
    const o = await p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(o <= 0, `overflows by ${o}px`);
  });
});

// ---- wrong checks in the editor, Markdown in its tooltips -----------------------------------------

test("under the write-up's stages, wrong checks are marked in the editor with the reason", async () => {
  await withPage({}, async (p) => {
    await p.tid("stage-as-written").check();
    await waitStage(p, "as-written");
    const wrong = Number(await p.tid("wrong-count").first().textContent().then((t) => t.match(/\d+/)[0]));
    assert.ok(wrong >= 6, `${wrong} wrong checks`);
    // One mark per assert statement (the cases of a parametrized test share theirs).
    await p.page.waitForFunction(() => window.__benchExplorer.wrongMarks > 0);
    const marks = await p.hook("wrongMarks");
    assert.ok(marks >= 4 && marks <= wrong, `${marks} marks for ${wrong} wrong checks`);
    // Gutter marks and squiggles are drawn for the lines on screen (CodeMirror renders the viewport).
    const gutter = await p.tid("wrong-check-gutter").count();
    const drawn = await p.tid("wrong-check-mark").count();
    assert.ok(gutter >= 1 && gutter <= marks, `${gutter} gutter marks drawn`);
    assert.equal(drawn, gutter, "a squiggle on each marked line");
    await p.page.locator('[data-testid="wrong-check-mark"]', { hasText: "result == 5" }).first().hover();
    const tip = p.tid("wrong-check-tooltip");
    await tip.waitFor();
    const text = await tip.textContent();
    assert.match(text, /Wrong check: this stage checks result == 5, but the test checks word_ladder\(/);
    assert.ok(!text.includes("`"), `raw backticks in the tooltip: ${text}`);
    assert.ok((await tip.locator("code").count()) >= 2, "code spans are rendered as code");
    await p.shot("wrong-check-tooltip");
    // The faithful stage has none.
    await p.tid("stage-full").check();
    await waitStage(p, "full");
    await p.page.waitForFunction(() => window.__benchExplorer.wrongMarks === 0);
    assert.equal(await p.tid("wrong-check-gutter").count(), 0);
  });
});

test("editor tooltips render Markdown code spans as code", async () => {
  await withPage({}, async (p) => {
    await p.setText("from solution import f\nimport helpers\n\ndef test_a():\n    y = helpers.make()\n    assert f(y) == 1\n");
    const range = p.page.locator("[class*=cm-lintRange-]").first();
    await range.waitFor();
    await range.hover();
    const tip = p.page.locator(".cm-tooltip-lint").first();
    await tip.waitFor();
    const text = await tip.textContent();
    assert.ok(!text.includes("`"), `raw backticks: ${text}`);
    assert.ok((await tip.locator("code.cm-md-code").count()) >= 1, `no code span in: ${text}`);
  });
});

// ---- light-mode contrast --------------------------------------------------------------------------

/** The contrast ratio of an element's text against what is behind it (alpha composited). */
const contrastOf = (loc) =>
  loc.evaluate((el) => {
    const parse = (c) => {
      const m = c.match(/rgba?\(([^)]+)\)/);
      if (!m) return null;
      const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return { r, g, b, a };
    };
    const over = (top, under) => ({
      r: top.r * top.a + under.r * (1 - top.a),
      g: top.g * top.a + under.g * (1 - top.a),
      b: top.b * top.a + under.b * (1 - top.a),
      a: 1,
    });
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const bg = parse(getComputedStyle(e).backgroundColor);
      if (bg && bg.a > 0) layers.push(bg);
      if (bg && bg.a === 1) break;
    }
    let back = { r: 255, g: 255, b: 255, a: 1 };
    for (const l of layers.reverse()) back = over(l, back);
    const fg = over(parse(getComputedStyle(el).color), back);
    const lum = ({ r, g, b }) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const [hi, lo] = [lum(fg), lum(back)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  });

test("light mode: the kept pill, the agree pill and the origins meet WCAG AA (4.5:1)", async () => {
  await withPage({}, async (p) => {
    const kept = await contrastOf(p.page.locator('[data-testid="assertion-status"].kept').first());
    // A picked row (its background is tinted) with an inlined origin.
    const row = p.page.locator('[data-testid="assertion-row"]', { has: p.page.locator(".origins") }).first();
    await row.click();
    await p.page.locator('[data-testid="assertion-row"].selected .origins').first().waitFor();
    const origins = await contrastOf(p.page.locator('[data-testid="assertion-row"].selected .origins').first());
    await p.tid("tab-run").click();
    const agree = await contrastOf(p.page.locator(".verdict-pill.v-agree").first());
    console.log(`[contrast] kept ${kept.toFixed(2)}, origins ${origins.toFixed(2)}, agree ${agree.toFixed(2)}`);
    for (const [what, c] of [["✓ kept", kept], ["inlined origin", origins], ["agree pill", agree]]) {
      assert.ok(c >= 4.5, `${what}: ${c.toFixed(2)}:1`);
    }
  });
});

// ---- settings, shortcuts ----------------------------------------------------------------------------

test("a pasted file gets no slug warning; the settings set the slug, modules, wrapping and font size", async () => {
  await withPage({}, async (p) => {
    await p.tid("problem-picker").selectOption("__scratch__");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
    await p.setText("import mine\n\ndef test_a():\n    assert mine.add(1, 2) == 3\n");
    assert.equal(await p.page.locator('[data-testid="shape-badge"][data-shape="slug-name-mismatch"]').count(), 0);
    assert.equal(await p.page.locator('[data-testid="findings"]', { hasText: "slug" }).count(), 0);
    // `mine` is not the solution yet: dropped. Name it, and set the slug.
    assert.equal(await p.tid("assertion-expr").count(), 0);
    await p.tid("settings-button").click();
    await p.tid("settings-panel").waitFor();
    let n = await p.extractions();
    await p.tid("settings-modules").fill("mine");
    await p.tid("settings-modules").press("Enter");
    await p.tid("settings-modules").evaluate((el) => el.dispatchEvent(new Event("change", { bubbles: true })));
    await p.waitForExtraction(n);
    await p.page.getByText("mine.add(1, 2) == 3", { exact: true }).waitFor();
    n = await p.extractions();
    await p.tid("settings-slug").fill("sum_two");
    await p.tid("settings-slug").evaluate((el) => el.dispatchEvent(new Event("change", { bubbles: true })));
    await p.waitForExtraction(n);
    // A real slug that differs from the function called: now the warning is meant.
    await p.page.locator('[data-testid="shape-badge"][data-shape="slug-name-mismatch"]').first().waitFor();
    // Editor settings apply at once and are remembered.
    await p.tid("settings-wrap").check();
    await p.tid("settings-font").fill("17");
    await p.tid("settings-font").evaluate((el) => el.dispatchEvent(new Event("change", { bubbles: true })));
    const editorStyle = () =>
      p.page.evaluate(() => {
        const root = document.querySelector('[data-testid="editor"]').shadowRoot;
        return {
          wrapped: root.querySelector(".cm-content").classList.contains("cm-lineWrapping"),
          font: getComputedStyle(root.querySelector(".cm-scroller")).fontSize,
        };
      });
    await p.page.waitForFunction(() => getComputedStyle(document.querySelector('[data-testid="editor"]').shadowRoot.querySelector(".cm-scroller")).fontSize === "17px");
    assert.deepEqual(await editorStyle(), { wrapped: true, font: "17px" });
    await p.page.reload();
    await p.waitReady();
    await p.page.waitForFunction(() => getComputedStyle(document.querySelector('[data-testid="editor"]').shadowRoot.querySelector(".cm-scroller")).fontSize === "17px");
    assert.deepEqual(await editorStyle(), { wrapped: true, font: "17px" });
    await p.page.getByText("sum_two", { exact: true }).first().waitFor();
  });
});

test("? opens the keyboard-shortcut sheet (not while typing); Escape closes it", async () => {
  await withPage({}, async (p) => {
    await p.tid("tab-audit").focus();
    await p.page.keyboard.press("?");
    await p.tid("shortcut-sheet").waitFor();
    assert.match(await p.tid("shortcut-sheet").textContent(), /Ctrl\+Enter/);
    await p.page.keyboard.press("Escape");
    await p.tid("shortcut-sheet").waitFor({ state: "detached" });
    // In the editor, ? is a character.
    const before = await p.getText();
    await p.page.locator('[data-testid="editor-content"]').focus();
    await p.page.keyboard.press("Control+End");
    await p.page.keyboard.type("#?");
    assert.equal(await p.tid("shortcut-sheet").count(), 0);
    assert.equal(await p.getText(), before + "#?");
  });
});

test("the settings' pytest version changes the ids of long string parameters, as pytest 9.2 does", async () => {
  await withPage({}, async (p) => {
    await p.tid("problem-picker").selectOption("__scratch__");
    await p.page.waitForFunction(() => window.__benchExplorer.currentFile === "test_scratch.py");
    const long = "x".repeat(120);
    let n = await p.extractions();
    await p.setText(`import pytest\n\n@pytest.mark.parametrize("s", ["${long}"])\ndef test_long(s):\n    assert len(s) == 120\n`);
    await p.waitForExtraction(n);
    assert.equal(await p.tid("assertion-row").first().getAttribute("data-test"), `test_long[${long}]`);
    await p.tid("settings-button").click();
    n = await p.extractions();
    await p.tid("settings-pytest-version").selectOption("9.2");
    await p.waitForExtraction(n);
    await p.page.waitForFunction(() => document.querySelector('[data-testid="assertion-row"]')?.dataset.test === "test_long[s0]");
    await p.tid("settings-close").click();
  });
});

test("each shortcut of the sheet does what the sheet says", async () => {
  await withPage({}, async (p) => {
    await p.tid("tab-assertions").focus();
    // 1–4: the stages.
    await p.page.keyboard.press("1");
    await waitStage(p, "as-written");
    await p.page.keyboard.press("4");
    await waitStage(p, "full");
    // j / k: next and previous assertion.
    const selected = () => p.page.evaluate(() => [...document.querySelectorAll('[data-testid="assertion-row"]')].findIndex((r) => r.classList.contains("selected")));
    await p.page.keyboard.press("j");
    await p.page.waitForFunction(() => document.querySelector('[data-testid="assertion-row"].selected'));
    assert.equal(await selected(), 0);
    await p.page.keyboard.press("j");
    await p.page.waitForFunction(() => [...document.querySelectorAll('[data-testid="assertion-row"]')].findIndex((r) => r.classList.contains("selected")) === 1);
    await p.page.keyboard.press("k");
    await p.page.waitForFunction(() => [...document.querySelectorAll('[data-testid="assertion-row"]')].findIndex((r) => r.classList.contains("selected")) === 0);
    // o: the selected assertion's page (its rule, or its shape).
    await p.page.keyboard.press("o");
    await p.page.locator('[data-testid="shape-page"], [data-testid="rule-page"]').first().waitFor();
    // Alt+Shift+E: the editor; Alt+Shift+R: back to the results, from inside the editor.
    await p.page.keyboard.press("Alt+Shift+KeyE");
    await p.page.waitForFunction(() => document.activeElement?.closest('[data-testid="editor"]'));
    const text = await p.getText();
    await p.page.keyboard.press("Alt+Shift+KeyR");
    await p.page.waitForFunction(() => document.activeElement?.dataset.testid === "assertion-row");
    assert.equal(await p.getText(), text, "the shortcut typed nothing in the editor");
    // ?: the sheet lists them all.
    await p.page.keyboard.press("?");
    for (const k of ["1 2 3 4", "j / k", "Alt+Shift+E", "Alt+Shift+R", "Ctrl+. / ⌘+."]) {
      assert.ok((await p.tid("shortcut-sheet").textContent()).includes(k), k);
    }
    await p.page.keyboard.press("Escape");
  });
});

test("after a run with \"Your code\", the verdict headline is in view", async () => {
  await withPage({}, async (p) => {
    await p.tid("tab-run").click();
    await p.tid("run-solution-select").selectOption("custom");
    await p.tid("solution-editor-content").waitFor();
    const code = readFileSync(path.join(ROOT, "problems", "word_ladder", "solution.py"), "utf8");
    await p.page.evaluate((c) => window.__benchExplorer.solutionEditor.setDoc(c, false), code);
    await p.page.waitForFunction(() => window.__benchExplorer.pyState === "ready", null, { timeout: 120000 });
    const before = (await p.hook("runs")) || 0;
    await p.tid("run-button").click();
    await p.page.waitForFunction((n) => (window.__benchExplorer.runs || 0) > n, before, { timeout: 120000 });
    await p.tid("run-headline").waitFor();
    await p.page.waitForFunction(() => {
      const h = document.querySelector('[data-testid="run-headline"]').getBoundingClientRect();
      const body = document.querySelector("#results .tab-body").getBoundingClientRect();
      return h.top >= body.top - 1 && h.bottom <= Math.min(body.bottom, innerHeight) + 1;
    }, null, { timeout: 5000 });
    const box = await p.tid("run-headline").boundingBox();
    console.log(`[layout] verdict headline at y=${Math.round(box.y)} after the run`);
  });
});

test("two stages side by side: word_ladder as written against faithful", async () => {
  await withPage({}, async (p) => {
    await p.tid("tab-compare").click();
    await p.tid("compare-view").waitFor();
    assert.equal(hash(p), "#view?p=word_ladder&t=compare");
    assert.equal(await p.tid("compare-left").inputValue(), "as-written");
    assert.equal(await p.tid("compare-right").inputValue(), "full");
    const totals = p.tid("compare-totals");
    assert.equal(await totals.getAttribute("data-right-kept"), "7");
    const changed = Number(await totals.getAttribute("data-changed"));
    assert.ok(changed >= 6, `${changed} changed`);
    const rewritten = p.page.locator('[data-testid="compare-row"][data-change="rewritten"]').first();
    assert.match(await rewritten.locator("td").nth(2).textContent(), /kept\s*result == /);
    assert.match(await rewritten.locator("td").nth(3).textContent(), /kept\s*word_ladder\(/);
    // The same stage on both sides: nothing changed.
    await p.tid("compare-left").selectOption("full");
    await p.page.waitForFunction(() => document.querySelector('[data-testid="compare-totals"]').dataset.changed === "0");
  });
});

test("the panes resize by dragging or with the arrow keys, and keep their size", async () => {
  await withPage({}, async (p) => {
    const width = () => p.page.evaluate(() => document.querySelector(".source-pane").getBoundingClientRect().width);
    const w0 = await width();
    const h = await p.tid("splitter").boundingBox();
    await p.page.mouse.move(h.x + h.width / 2, h.y + 200);
    await p.page.mouse.down();
    await p.page.mouse.move(h.x - 200, h.y + 200, { steps: 5 });
    await p.page.mouse.up();
    const w1 = await width();
    assert.ok(Math.abs(w0 - 200 - w1) < 20, `dragged 200 px left: ${w0} → ${w1}`);
    await p.tid("splitter").focus();
    await p.page.keyboard.press("ArrowRight");
    const w2 = await width();
    assert.ok(Math.abs(w2 - w1 - 40) < 3, `→ gives 40 px: ${w1} → ${w2}`);
    await p.page.reload();
    await p.waitReady();
    await p.page.waitForFunction((w) => Math.abs(document.querySelector(".source-pane").getBoundingClientRect().width - w) < 3, w2);
    await p.tid("splitter").dblclick();
    await p.page.waitForFunction((w) => Math.abs(document.querySelector(".source-pane").getBoundingClientRect().width - w) < 3, w0);
  });
});
