// PyRunner (www/py/client.mjs) against a fake Worker: queueing, timeout + restart,
// interrupt, crashes and start-up failures, without a browser.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PyRunner } from "../../www/py/client.mjs";

/** A stand-in for Web Worker that the test scripts by hand. */
class FakeWorker extends EventTarget {
  static all = [];
  constructor(url, options) {
    super();
    this.url = String(url);
    this.options = options;
    this.sent = [];
    this.terminated = false;
    FakeWorker.all.push(this);
  }
  postMessage(msg) {
    if (this.terminated) throw new Error("posted to a terminated worker");
    this.sent.push(msg);
    this.onPost?.(msg);
  }
  terminate() {
    this.terminated = true;
  }
  // Test side: what the worker would post or raise.
  emit(data) {
    const event = new Event("message");
    event.data = data;
    this.dispatchEvent(event);
  }
  crash(message) {
    const event = new Event("error", { cancelable: true });
    event.message = message;
    this.dispatchEvent(event);
  }
  ready() {
    for (const stage of ["pyodide", "wheels", "pytest", "ready"]) this.emit({ type: "progress", stage, detail: null });
  }
  runs() {
    return this.sent.filter((m) => m.type === "run");
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const REQ = { solution: "x = 1", test_source: null, test_filename: "test_x.py", assertions: [{ id: "a", expr: "x == 1" }] };

function makeRunner(options = {}) {
  FakeWorker.all = [];
  const progress = [];
  const runner = new PyRunner({ workerUrl: "/py/worker.mjs", Worker: FakeWorker, onProgress: (m) => progress.push(m), ...options });
  return { runner, progress, worker: () => FakeWorker.all.at(-1) };
}

test("starts a module worker and waits for it before sending a run", async () => {
  const { runner, progress, worker } = makeRunner();
  assert.equal(worker().options.type, "module");
  assert.equal(runner.state, "loading");
  const pending = runner.run({ ...REQ, id: "r1" }, { timeoutMs: 1000 });
  await tick();
  assert.equal(worker().runs().length, 0, "nothing is sent before ready");
  worker().ready();
  assert.equal(runner.state, "running");
  const [sent] = worker().runs();
  assert.equal(sent.solution, "x = 1");
  assert.deepEqual(sent.assertions, REQ.assertions);
  assert.equal(sent.bindings, null, "a request without bindings is a version 1 one");
  worker().emit({ type: "result", id: sent.id, evals: [], pytest: null, timings: { eval_ms: 1, pytest_ms: 0 } });
  const reply = await pending;
  assert.equal(reply.type, "result");
  assert.equal(reply.id, "r1", "the caller's id comes back");
  assert.equal(runner.state, "ready");
  assert.deepEqual(progress.map((m) => m.stage), ["pyodide", "wheels", "pytest", "ready"]);
  await runner.whenReady();
  runner.dispose();
});

test("the extraction's bindings are forwarded as they are", async () => {
  const { runner, worker } = makeRunner();
  worker().ready();
  const bindings = [
    { kind: "attr", name: "x", module: "solution", attr: "x" },
    { kind: "module", name: "sol", module: "solution" },
  ];
  const pending = runner.run({ ...REQ, id: "b", bindings });
  const [sent] = worker().runs();
  assert.deepEqual(sent.bindings, bindings);
  worker().emit({ type: "result", id: sent.id, evals: [], pytest: null, timings: {} });
  assert.equal((await pending).type, "result");
  runner.dispose();
});

test("a second run waits for the first", async () => {
  const { runner, worker } = makeRunner();
  worker().ready();
  const first = runner.run({ ...REQ, id: 1 });
  const second = runner.run({ ...REQ, id: 2 });
  assert.equal(worker().runs().length, 1);
  const [a] = worker().runs();
  worker().emit({ type: "error", id: a.id, message: "boom", python_type: "TypeError" });
  assert.deepEqual(await first, { type: "error", id: 1, message: "boom", python_type: "TypeError" });
  assert.equal(worker().runs().length, 2);
  const b = worker().runs()[1];
  worker().emit({ type: "result", id: b.id, evals: [], pytest: null, timings: {} });
  assert.equal((await second).id, 2);
  runner.dispose();
});

test("a timeout terminates the worker, resolves {type: 'timeout'} and the next run uses a fresh worker", async () => {
  const { runner, progress, worker } = makeRunner();
  const old = worker();
  old.ready();
  const slow = runner.run({ ...REQ, id: "slow" }, { timeoutMs: 30 });
  const next = runner.run({ ...REQ, id: "next" }, { timeoutMs: 1000 });
  const reply = await slow;
  assert.deepEqual(reply, { type: "timeout", id: "slow", timeoutMs: 30, restarted: true });
  assert.equal(old.terminated, true);
  assert.notEqual(worker(), old, "a new worker was started");
  assert.equal(runner.state, "loading");
  assert.ok(progress.some((m) => m.stage === "restart"));
  // A late reply from the old worker is ignored.
  old.emit({ type: "result", id: old.runs()[0].id, evals: [], pytest: null, timings: {} });
  worker().ready();
  const [sent] = worker().runs();
  assert.equal(sent.solution, REQ.solution);
  worker().emit({ type: "result", id: sent.id, evals: [{ id: "a", outcome: "pass" }], pytest: null, timings: {} });
  assert.equal((await next).type, "result");
  runner.dispose();
});

test("the time limit starts when the run is handed to a ready worker", async () => {
  const { runner, worker } = makeRunner();
  const pending = runner.run(REQ, { timeoutMs: 40 });
  await sleep(80); // still loading: no timer yet
  worker().ready();
  const [sent] = worker().runs();
  worker().emit({ type: "result", id: sent.id, evals: [], pytest: null, timings: {} });
  assert.equal((await pending).type, "result");
  runner.dispose();
});

test("with an interrupt buffer, a timeout first interrupts and keeps the worker", async () => {
  const { runner, worker } = makeRunner({ useInterrupt: true, interruptGraceMs: 200 });
  const w = worker();
  const [setup] = w.sent;
  assert.equal(setup.type, "interrupt-buffer");
  const view = new Int32Array(setup.buffer);
  w.ready();
  // The fake "Python" notices the interrupt and answers like Pyodide would.
  w.onPost = (msg) => {
    if (msg.type !== "run") return;
    const poll = setInterval(() => {
      if (Atomics.load(view, 0) === 2) {
        clearInterval(poll);
        Atomics.store(view, 0, 0);
        w.emit({ type: "error", id: msg.id, message: "KeyboardInterrupt", python_type: "KeyboardInterrupt", interrupted: true });
      }
    }, 5);
  };
  const reply = await runner.run({ ...REQ, id: "loop" }, { timeoutMs: 30 });
  assert.deepEqual(reply, { type: "timeout", id: "loop", timeoutMs: 30, restarted: false });
  assert.equal(w.terminated, false);
  assert.equal(worker(), w);
  assert.equal(runner.state, "ready");

  // If Python does not react within the grace period, the worker is terminated after all.
  w.onPost = null;
  const stuck = await runner.run({ ...REQ, id: "stuck" }, { timeoutMs: 30 });
  assert.deepEqual(stuck, { type: "timeout", id: "stuck", timeoutMs: 30, restarted: true });
  assert.equal(w.terminated, true);
  assert.notEqual(worker(), w);
  runner.dispose();
});

test("an interrupt that Pyodide loses is written again", async () => {
  const { runner, worker } = makeRunner({ useInterrupt: true, interruptGraceMs: 1000 });
  const w = worker();
  const view = new Int32Array(w.sent[0].buffer);
  w.ready();
  // Like Pyodide's read-then-clear race: the first 2 is wiped without being acted on.
  let seen = 0;
  w.onPost = (msg) => {
    if (msg.type !== "run") return;
    const poll = setInterval(() => {
      if (Atomics.load(view, 0) !== 2) return;
      Atomics.store(view, 0, 0);
      if (++seen < 2) return;
      clearInterval(poll);
      w.emit({ type: "error", id: msg.id, message: "KeyboardInterrupt", python_type: "KeyboardInterrupt", interrupted: true });
    }, 5);
  };
  const reply = await runner.run(REQ, { timeoutMs: 20 });
  assert.equal(reply.restarted, false);
  assert.equal(seen, 2);
  assert.equal(w.terminated, false);
  await sleep(250);
  assert.equal(Atomics.load(view, 0), 0, "no more writes once Python answered");
  runner.dispose();
});

test("a worker crash rejects the run and restarts the worker", async () => {
  const { runner, worker } = makeRunner();
  const old = worker();
  old.ready();
  const pending = runner.run(REQ);
  old.crash("out of memory");
  await assert.rejects(pending, /Python worker crashed: out of memory/);
  assert.equal(old.terminated, true);
  assert.notEqual(worker(), old);
  worker().ready();
  const again = runner.run(REQ);
  const [sent] = worker().runs();
  worker().emit({ type: "result", id: sent.id, evals: [], pytest: null, timings: {} });
  assert.equal((await again).type, "result");
  runner.dispose();
});

test("a fatal error reply resolves and replaces the worker", async () => {
  const { runner, worker } = makeRunner();
  const old = worker();
  old.ready();
  const pending = runner.run(REQ);
  old.emit({ type: "error", id: old.runs()[0].id, message: "Program terminated with exit(1)", fatal: true });
  const reply = await pending;
  assert.equal(reply.fatal, true);
  assert.equal(old.terminated, true);
  assert.equal(runner.state, "loading");
  runner.dispose();
});

test("a worker whose heap grew past the limit is replaced after its reply", async () => {
  const { runner, worker } = makeRunner({ recycleAboveBytes: 1000 });
  const old = worker();
  old.ready();
  const small = runner.run(REQ);
  old.emit({ type: "result", id: old.runs()[0].id, evals: [], pytest: null, timings: {}, memory_bytes: 999 });
  await small;
  assert.equal(worker(), old);
  const big = runner.run(REQ);
  old.emit({ type: "result", id: old.runs()[1].id, evals: [], pytest: null, timings: {}, memory_bytes: 4096 });
  assert.equal((await big).type, "result", "the reply is still delivered");
  assert.equal(old.terminated, true);
  assert.notEqual(worker(), old);
  runner.dispose();
});

test("a start-up failure rejects queued runs without a restart loop; a later run retries", async () => {
  const { runner, progress, worker } = makeRunner();
  const first = worker();
  const pending = runner.run(REQ);
  const ready = runner.whenReady();
  first.emit({ type: "init-error", message: "cannot load /vendor/pyodide/pyodide.mjs: HTTP 404" });
  await assert.rejects(pending, /Python failed to start: cannot load/);
  await assert.rejects(ready, /HTTP 404/);
  assert.equal(runner.state, "failed");
  assert.equal(FakeWorker.all.length, 1, "no automatic restart");
  assert.ok(progress.some((m) => m.stage === "failed"));

  // An error event before ready (say, a 404 on worker.mjs) counts as a start-up failure too.
  const retry = runner.run(REQ);
  assert.equal(FakeWorker.all.length, 2);
  worker().crash("failed to fetch worker script");
  await assert.rejects(retry, /failed to start: failed to fetch/);
  assert.equal(FakeWorker.all.length, 2);
  runner.dispose();
});

test("dispose rejects pending runs and further calls", async () => {
  const { runner, worker } = makeRunner();
  worker().ready();
  const running = runner.run(REQ);
  const queued = runner.run(REQ);
  runner.dispose();
  await assert.rejects(running, /disposed/);
  await assert.rejects(queued, /disposed/);
  await assert.rejects(runner.run(REQ), /disposed/);
  assert.equal(runner.state, "disposed");
  assert.equal(worker().terminated, true);
});
