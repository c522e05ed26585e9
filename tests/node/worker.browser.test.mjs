// The real thing: worker.mjs + client.mjs in headless Chromium, assets served from
// one local origin (127.0.0.1, an ephemeral port), no network. Skipped when no
// Chromium is installed (scripts/setup.sh browser installs Debian's).
//
// Two origins are served: a plain one, where a runaway run is stopped by
// terminating the worker, and a cross-origin isolated one (COOP/COEP headers),
// where the interrupt buffer stops it and the worker is kept.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { wwwDir } from "./helpers.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (scripts/setup.sh browser)`;

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".py": "text/plain; charset=utf-8",
};

const TEST_PAGE = `<!doctype html><meta charset="utf-8"><title>worker test</title>
<script type="module">
  import { PyRunner } from "/py/client.mjs";
  window.PyRunner = PyRunner;
  window.loaded = true;
</script>`;

/** A static server for www/ on 127.0.0.1; `isolated` adds the cross-origin isolation headers. */
async function serve({ isolated }) {
  const server = createServer(async (req, res) => {
    const headers = isolated
      ? { "Cross-Origin-Opener-Policy": "same-origin", "Cross-Origin-Embedder-Policy": "require-corp" }
      : {};
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/__test__.html") {
      res.writeHead(200, { ...headers, "Content-Type": TYPES[".html"] });
      return res.end(TEST_PAGE);
    }
    const file = normalize(join(wwwDir, path));
    if (!file.startsWith(wwwDir + sep)) {
      res.writeHead(403);
      return res.end();
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { ...headers, "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}/__test__.html` };
}

const SOLUTION = "def sq(x):\n    return x * x\n";
const TEST_FILE = `import pytest
from solution import sq

def test_x():
    assert sq(3) == 9

@pytest.mark.parametrize("a, b", [(2, 4)])
def test_sq(a, b):
    assert sq(a) == b

class TestA:
    def test_b(self):
        assert sq(1) == 1
`;
const REQUEST = {
  solution: SOLUTION,
  test_source: TEST_FILE,
  test_filename: "test_sq.py",
  assertions: [{ id: 1, expr: "sq(3) == 9" }, { id: 2, expr: "sq(2) == 5" }],
};
const LOOP = { ...REQUEST, solution: "while True:\n    pass\n", test_source: null };

let browser;
const servers = [];

before(async () => {
  if (skip) return;
  const { chromium } = await import("playwright-core");
  // As root, Chromium hangs at start without --no-sandbox.
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
});

after(async () => {
  await browser?.close();
  for (const s of servers) s.close();
});

async function openPage(isolated) {
  const { server, url } = await serve({ isolated });
  servers.push(server);
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForFunction(() => window.loaded === true);
  return { page, errors };
}

// One browser-side script per scenario: returns the replies and timings.
async function scenario(page, body, args) {
  return page.evaluate(
    async ({ body, args }) => {
      const fn = new Function("PyRunner", "args", `return (async () => { ${body} })()`);
      return fn(window.PyRunner, args);
    },
    { body, args },
  );
}

test("in Chromium: run, time out on a runaway loop, restart, run again", { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await openPage(false);
  const out = await scenario(
    page,
    `
    const stages = [];
    const t0 = performance.now();
    const runner = new PyRunner({ workerUrl: "/py/worker.mjs", onProgress: (m) => stages.push(m.stage) });
    await runner.whenReady();
    const ready_ms = performance.now() - t0;
    let t = performance.now();
    const first = await runner.run(args.REQUEST, { timeoutMs: 20000 });
    const first_ms = performance.now() - t;
    t = performance.now();
    const warm = await runner.run(args.REQUEST, { timeoutMs: 20000 });
    const warm_ms = performance.now() - t;
    const loop = await runner.run(args.LOOP, { timeoutMs: 1500 });
    const stateAfterTimeout = runner.state;
    t = performance.now();
    const again = await runner.run(args.REQUEST, { timeoutMs: 20000 });
    const restart_ms = performance.now() - t;
    runner.dispose();
    return { stages, ready_ms, first_ms, warm_ms, restart_ms, first, warm, loop, again, stateAfterTimeout,
             isolated: self.crossOriginIsolated };
    `,
    { REQUEST, LOOP },
  );
  const ms = (x) => `${Math.round(x)} ms`;
  console.log(
    `[timing] Chromium worker: ready ${ms(out.ready_ms)}, first run ${ms(out.first_ms)}, warm run ${ms(out.warm_ms)}, ` +
      `run after a timeout (new worker start-up included) ${ms(out.restart_ms)}`,
  );
  assert.equal(out.isolated, false);
  assert.deepEqual(out.stages.slice(0, 1), ["pyodide"]);
  assert.ok(out.stages.includes("ready"));
  for (const reply of [out.first, out.warm, out.again]) {
    assert.equal(reply.type, "result", reply.message);
    assert.deepEqual(reply.evals.map((e) => e.outcome), ["pass", "fail"]);
    assert.deepEqual(
      reply.pytest.tests.map((t) => [t.name, t.outcome]),
      [["test_x", "passed"], ["test_sq[2-4]", "passed"], ["TestA::test_b", "passed"]],
    );
  }
  assert.deepEqual(out.loop, { type: "timeout", id: out.loop.id, timeoutMs: 1500, restarted: true });
  assert.equal(out.stateAfterTimeout, "loading");
  assert.ok(out.stages.includes("restart"));
  assert.deepEqual(errors, []);
  await page.close();
});

test("in Chromium, cross-origin isolated: the interrupt buffer stops a runaway loop and keeps the worker", { skip, timeout: 120_000 }, async () => {
  const { page, errors } = await openPage(true);
  const out = await scenario(
    page,
    `
    const stages = [];
    const runner = new PyRunner({ workerUrl: "/py/worker.mjs", onProgress: (m) => stages.push(m.stage) });
    await runner.whenReady();
    const loop = await runner.run(args.LOOP, { timeoutMs: 1000 });
    const stateAfterTimeout = runner.state;
    const t = performance.now();
    const again = await runner.run(args.REQUEST, { timeoutMs: 20000 });
    const again_ms = performance.now() - t;
    runner.dispose();
    return { stages, loop, again, again_ms, stateAfterTimeout, isolated: self.crossOriginIsolated };
    `,
    { REQUEST, LOOP },
  );
  console.log(`[timing] Chromium, isolated: run right after an interrupted one ${Math.round(out.again_ms)} ms`);
  assert.equal(out.isolated, true);
  assert.deepEqual(out.loop, { type: "timeout", id: out.loop.id, timeoutMs: 1000, restarted: false });
  assert.equal(out.stateAfterTimeout, "ready");
  assert.ok(!out.stages.includes("restart"));
  assert.equal(out.again.type, "result", out.again.message);
  assert.deepEqual(out.again.evals.map((e) => e.outcome), ["pass", "fail"]);
  assert.deepEqual(errors, []);
  await page.close();
});
