// Browser harness for the explorer's end-to-end tests and its benchmark (tests/e2e/*.test.mjs,
// benches/web.mjs): serves a built dist/ folder on 127.0.0.1 and drives Debian's Chromium with npm
// playwright-core. No test framework in here; every helper works under node:test or a plain script.
//
//   import { startSession } from "./harness.mjs";
//   const s = await startSession();            // serves E2E_DIST (default dist/), launches Chromium
//   const p = await s.open();                   // a fresh context + page, waits for the first extraction
//   await p.setText("def test_a():\n    assert 1\n");   // one editor transaction, waits for its result
//   p.assertClean();                            // throws on console errors, page errors, CSP violations, off-host requests
//   await p.shot("name");                       // test-artifacts/e2e/name.png
//   await p.close(); await s.close();
//
// API
//   DIST, ROOT, ARTIFACTS             the dist folder (env E2E_DIST, relative to the repo), repo root, artefact folder
//   serve(dir) -> {origin, requests, close()}
//                                     static server on 127.0.0.1:<random port>; `requests` lists the paths asked
//   launchBrowser() -> Browser        headless /usr/bin/chromium (env CHROMIUM overrides), flags for this machine;
//                                     Playwright gives each launch a fresh temporary user-data-dir
//   startSession({dist}) -> session   serve + launch; session.origin, session.browser, session.server,
//                                     session.open(opts), session.close()
//   session.open({hash, path, viewport, colorScheme, intro, wait, allow}) -> p
//       hash        URL fragment to open with ("#s=…", "#audit"); default none
//       viewport    {width, height}; default 1280×800
//       colorScheme "light" | "dark"; default "light"
//       intro       show the first-visit introduction; default false (marked as seen in localStorage)
//       wait        wait for the first extraction (window.__benchExplorer.ready); default true
//       allow       RegExps of console/page error texts this test expects (e.g. a simulated panic)
//       block       RegExps of the page's own URLs whose requests fail (from before the page loads)
//   Every request to another host than the served origin is aborted and recorded (p.offHost).
//
//   p.page, p.context, p.origin       the Playwright objects, the served origin (http://127.0.0.1:<port>)
//   p.problems                        [{kind: "console"|"pageerror"|"csp"|"offhost"|"requestfailed"|"http", text}]
//   p.offHost                         URLs of requests to other hosts (aborted)
//   p.unexpected()                    p.problems minus those matching `allow`
//   p.assertClean()                   throws listing p.unexpected()
//   p.waitReady()                     waits for the first extraction on screen
//   p.hook(field?)                    one field of window.__benchExplorer, or all its plain (non-object) fields
//   p.extractions()                   how many extractions have been shown
//   p.setText(text, {wait})           replaces the editor's text in ONE transaction (no per-line input
//                                     events) and, unless wait=false, waits until an extraction of it is shown
//                                     and settled (p.waitSettled)
//   p.waitSettled()                   waits until the shown result's rows are all mounted (a slice per
//                                     frame) and the editor has its diagnostics
//   p.getText()                       the editor's text
//   p.waitForExtraction(after)        waits until more than `after` extractions have been shown
//   p.tid(id)                         page.getByTestId(id) (CSS test ids pierce the editor's shadow root)
//   p.shot(name, opts)                full-viewport screenshot into test-artifacts/e2e/<name>.png; returns the path
//   p.close()                         closes the context
//
//   synthTestFile(lines) -> string    a pytest file of at least `lines` lines, the same text as the
//                                     library's bench_explorer::synth::test_file (src/synth.rs)
//   heavyInput(name) -> string        issue 11's large inputs ("10mb", "50k", "pairs", "pairs100", "binary", "deep")
//   heavyBytes() -> Buffer            the "binary" input's bytes (random, fixed seed)
//
// Leptos updates the DOM asynchronously: wait for text/attributes (Playwright's expect-like polling
// via waitForFunction / locator.waitFor), never for a fixed time.

import { createServer } from "node:http";
import { readFile, stat, mkdir } from "node:fs/promises";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DIST = path.resolve(ROOT, process.env.E2E_DIST || "dist");
export const ARTIFACTS = path.join(ROOT, "test-artifacts", "e2e");

const MIME = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".whl": "application/zip",
  ".zip": "application/zip",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".py": "text/plain; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".tar": "application/x-tar",
  ".gz": "application/gzip",
};

/** Serve `dir` on 127.0.0.1 at a free port. */
export async function serve(dir = DIST) {
  const root = path.resolve(dir);
  if (!existsSync(path.join(root, "index.html"))) {
    throw new Error(`${root}/index.html is missing: build the page first (bash scripts/serve.sh --build)`);
  }
  const requests = [];
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, "http://127.0.0.1");
      requests.push(url.pathname);
      let file = path.join(root, decodeURIComponent(url.pathname));
      if (!file.startsWith(root)) {
        res.writeHead(403).end();
        return;
      }
      let s = await stat(file).catch(() => null);
      if (s && s.isDirectory()) {
        file = path.join(file, "index.html");
        s = await stat(file).catch(() => null);
      }
      if (!s) {
        res.writeHead(404, { "content-type": "text/plain" }).end("not found");
        return;
      }
      const body = await readFile(file);
      res.writeHead(200, {
        "content-type": MIME[path.extname(file).toLowerCase()] || "application/octet-stream",
        "content-length": body.length,
        "cache-control": "no-store",
      });
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** Headless Debian Chromium with the flags this machine needs (as root: --no-sandbox). */
export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
      "--disable-dev-shm-usage",
      // Extra flags for a benchmark's experiment (e.g. CHROMIUM_ARGS="--js-flags=--no-liftoff").
      ...(process.env.CHROMIUM_ARGS || "").split(" ").filter(Boolean),
    ],
  });
}

/** Serve the dist folder and launch Chromium. */
export async function startSession({ dist = DIST } = {}) {
  const server = await serve(dist);
  let browser;
  try {
    browser = await launchBrowser();
  } catch (e) {
    await server.close();
    throw e;
  }
  const session = {
    server,
    browser,
    origin: server.origin,
    open: (opts) => openPage(session, opts),
    close: async () => {
      await browser.close().catch(() => {});
      await server.close();
    },
  };
  return session;
}

async function openPage(session, opts = {}) {
  const {
    hash = "",
    path: urlPath = "/",
    viewport = { width: 1280, height: 800 },
    colorScheme = "light",
    intro = false,
    wait = true,
    allow = [],
    block = [],
    // A script run in the page before its own (Playwright's addInitScript).
    init = null,
  } = opts;
  const context = await session.browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
  for (const re of block) await context.route(re, (route) => route.abort("failed"));
  const problems = [];
  const offHost = [];
  const origin = session.origin;

  // Nothing may leave 127.0.0.1: abort (and record) every other request.
  await context.route(
    (url) => !url.href.startsWith(origin + "/") && /^(https?|wss?):/.test(url.protocol),
    (route) => {
      offHost.push(route.request().url());
      problems.push({ kind: "offhost", text: route.request().url() });
      return route.abort("blockedbyclient");
    },
  );
  // CSP violations reported by the page itself (also logged to the console by Chromium).
  await context.exposeBinding("__e2eCsp", (_src, v) => {
    problems.push({ kind: "csp", text: `${v.directive} blocked ${v.blocked} (${v.source})` });
  });
  await context.addInitScript((showIntro) => {
    document.addEventListener("securitypolicyviolation", (e) => {
      window.__e2eCsp({
        directive: e.violatedDirective,
        blocked: e.blockedURI,
        source: `${e.sourceFile}:${e.lineNumber}`,
      });
    });
    if (!showIntro) {
      try {
        localStorage.setItem("bench-explorer:intro-seen", "1");
      } catch {}
    }
  }, intro);
  if (init) await context.addInitScript(init);

  const page = await context.newPage();
  page.on("console", (m) => {
    if (m.type() === "error") problems.push({ kind: "console", text: m.text() });
  });
  page.on("pageerror", (e) => problems.push({ kind: "pageerror", text: `${e.name}: ${e.message}` }));
  // Requests the page's own navigation (a reload) cut short are not failures.
  page.on("requestfailed", (r) => {
    const why = r.failure()?.errorText || "";
    if (r.url().startsWith(origin) && !/ERR_ABORTED/.test(why)) problems.push({ kind: "requestfailed", text: `${r.url()} ${why}` });
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push({ kind: "http", text: `${r.status()} ${r.url()}` });
  });

  const p = {
    page,
    context,
    problems,
    offHost,
    allow,
    origin,
    tid: (id) => page.getByTestId(id),
    hook: (field) =>
      page.evaluate((f) => {
        const h = window.__benchExplorer || {};
        if (!f) {
          const out = {};
          for (const [k, v] of Object.entries(h)) if (typeof v !== "function" && typeof v !== "object") out[k] = v;
          return out;
        }
        return h[f];
      }, field),
    extractions: () => page.evaluate(() => (window.__benchExplorer && window.__benchExplorer.extractions) || 0),
    waitReady: (timeout = 30000) =>
      page.waitForFunction(() => window.__benchExplorer && window.__benchExplorer.ready === true, null, { timeout }),
    waitForExtraction: (after, timeout = 30000) =>
      page.waitForFunction((n) => ((window.__benchExplorer && window.__benchExplorer.extractions) || 0) > n, after, {
        timeout,
      }),
    getText: () => page.evaluate(() => window.__benchExplorer.editor.getDoc()),
    async setText(text, { wait: w = true, timeout = 30000 } = {}) {
      const before = await p.extractions();
      await page.evaluate((t) => window.__benchExplorer.editor.setDoc(t, false), text);
      if (w) {
        await p.waitForExtraction(before, timeout);
        await p.waitSettled(timeout);
      }
    },
    // The result's rows are all mounted (they go on screen a slice per frame) and the editor has its
    // diagnostics (set in a task after the views).
    waitSettled: (timeout = 30000) =>
      page.waitForFunction(
        () => {
          const h = window.__benchExplorer;
          return h.rowsHeld !== true && (h.diagnosticsPushed || 0) >= (h.extractions || 0);
        },
        null,
        { timeout },
      ),
    async shot(name, shotOpts = {}) {
      await mkdir(ARTIFACTS, { recursive: true });
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file, ...shotOpts });
      return file;
    },
    unexpected() {
      return problems.filter((x) => !allow.some((re) => re.test(x.text)));
    },
    assertClean() {
      const bad = p.unexpected();
      if (bad.length) {
        throw new Error(`the page reported ${bad.length} problem(s):\n` + bad.map((x) => `  [${x.kind}] ${x.text}`).join("\n"));
      }
    },
    close: () => context.close().catch(() => {}),
  };

  await page.goto(`${origin}${urlPath}${hash}`);
  if (wait) await p.waitReady();
  return p;
}

/** Issue 11's large inputs, generated (the same text every time): `name` is one of "10mb" (a 10 MB
 *  test file), "50k" (one test with 50,000 asserts), "pairs" (one test with 2,000 put/assert pairs),
 *  "pairs100" (4.5 KB: 100 such pairs, small enough to be tried on the page), "binary" (300 KB of random bytes decoded as a browser's FileReader.readAsText does, U+FFFD for
 *  invalid UTF-8, from a fixed seed), "deep" (50,000-deep brackets). */
export function heavyInput(name) {
  switch (name) {
    case "50k": {
      const lines = ["from solution import f", "", "def test_many():"];
      for (let i = 0; i < 50_000; i++) lines.push(`    assert f(${i}) == ${i}`);
      return lines.join("\n") + "\n";
    }
    case "pairs": {
      const lines = ["from solution import Cache", "", "def test_pairs():", "    c = Cache(4)"];
      for (let i = 0; i < 2_000; i++) lines.push(`    c.put(${i}, ${i})`, `    assert c.get(${i}) == ${i}`);
      return lines.join("\n") + "\n";
    }
    case "pairs100": {
      // Small (4.5 KB) but expensive: each assert replays every put before it. The page tries a
      // small text on its main thread and must stop at its bound (www/boot.js).
      const lines = ["from solution import Cache", "", "def test_pairs():", "    c = Cache(4)"];
      for (let i = 0; i < 100; i++) lines.push(`    c.put(${i}, ${i})`, `    assert c.get(${i}) == ${i}`);
      return lines.join("\n") + "\n";
    }
    case "binary":
      return new TextDecoder("utf-8").decode(heavyBytes());
    case "deep":
      return `def test_deep():\n    assert ${"(".repeat(50_000)}1${")".repeat(50_000)} == 1\n`;
    case "10mb": {
      const unit = synthTestFile(1_000);
      let text = unit;
      while (text.length < 10_000_000) text += unit.replace(/def test_(\w+)/g, (_, n) => `def test_${n}_${text.length}`);
      return text;
    }
    default:
      throw new Error(`heavyInput: unknown input ${name}`);
  }
}

/** The "binary" input's bytes: 300 KB of random bytes from a fixed seed (a Buffer). */
export function heavyBytes() {
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
  const bin = Buffer.alloc(300_000);
  for (let i = 0; i < bin.length; i++) bin[i] = rnd();
  return bin;
}

/** JavaScript twin of `bench_explorer::synth::test_file` (src/synth.rs): the same text, byte for byte. */
export function synthTestFile(lines) {
  const parts = [
    'import importlib.util\nfrom pathlib import Path\n\nimport pytest\n\nWORDS = ["hot", "dot", "dog", "lot", "log", "cog"]\n\n\ndef _load_solution():\n    path = Path(__file__).with_name("solution.py")\n    spec = importlib.util.spec_from_file_location("solution", path)\n    assert spec.loader is not None\n    module = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(module)\n    return module\n\n',
  ];
  let count = parts[0].split("\n").length - 1;
  for (let i = 0; count < lines; i++) {
    let block;
    switch (i % 4) {
      case 0:
        block = `\ndef test_ladder_${i}():\n    sol = _load_solution()\n    result = sol.word_ladder("hit", "cog", WORDS)\n    assert result == ${i % 7}\n`;
        break;
      case 1:
        block = `\n@pytest.mark.parametrize("a, b, expected", [(${i}, 1, ${i + 1}), (${i}, -1, ${i - 1}), pytest.param(0, 0, 0, id="zero")])\ndef test_add_${i}(a, b, expected):\n    assert _load_solution().add(a, b) == expected\n`;
        break;
      case 2:
        block = `\ndef test_cache_${i}():\n    cache = _load_solution().LRUCache(2)\n    cache.put(1, "a")\n    cache.put(2, "b")\n    assert cache.get(1) == "a"\n    cache.put(3, "c")\n    assert cache.get(2) is None\n`;
        break;
      default:
        block = `\nclass TestMisc${i}:\n    def test_total(self):\n        values = [${i}, ${i + 1}, ${i + 2}]\n        total = _load_solution().total(values)\n        assert total == ${3 * i + 3}\n`;
    }
    parts.push(block);
    count += block.split("\n").length - 1;
  }
  return parts.join("");
}
