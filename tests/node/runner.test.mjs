// The engine (www/py/engine.mjs + runner.py) on real Pyodide under Node, with the
// pytest wheels from www/vendor/wheels. Run: node --test tests/node/
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { createEngine } from "../../www/py/engine.mjs";
import { nodeEngineOptions } from "./helpers.mjs";

const SOLUTION = `
def sq(x):
    return x * x

class Counter:
    def __init__(self):
        self.n = 0
    def add(self, k):
        self.n += k
        return self
`;

const TEST_FILE = `
import pytest
from solution import sq, Counter

def test_x():
    result = sq(3)
    assert result == 9

@pytest.mark.parametrize("a, b", [(2, 4), (3, 9)])
def test_sq(a, b):
    assert sq(a) == b

class TestA:
    def test_b(self):
        assert Counter().add(2).n == 2
`;

const ASSERTIONS = [
  { id: "x", expr: "sq(3) == 9" },
  { id: "sq-2", expr: "sq(2) == 4" },
  { id: "sq-3", expr: "sq(3) == 9" },
  { id: "b", expr: "Counter().add(2).n == 2" },
];

const request = (fields) => ({
  type: "run",
  id: fields.id ?? 1,
  solution: SOLUTION,
  test_source: TEST_FILE,
  test_filename: "test_sq.py",
  assertions: ASSERTIONS,
  ...fields,
});

const byName = (reply) => Object.fromEntries(reply.pytest.tests.map((t) => [t.name, t]));
const ms = (x) => `${Math.round(x)} ms`;

let engine;
const progress = [];

before(async () => {
  const t0 = performance.now();
  engine = await createEngine(await nodeEngineOptions({ onProgress: (m) => progress.push(m) }));
  const total = performance.now() - t0;
  const s = engine.startup;
  console.log(
    `[timing] cold start (loadPyodide): ${ms(s.pyodide_ms)}; wheels: ${ms(s.wheels_ms)}; ` +
      `import pytest + runner.py: ${ms(s.pytest_ms)}; engine total: ${ms(total)}`,
  );
});

test("progress stages arrive in order", () => {
  const stages = progress.map((m) => m.stage).filter((s, i, a) => s !== a[i - 1]);
  assert.deepEqual(stages, ["pyodide", "wheels", "pytest", "ready"]);
  assert.ok(progress.every((m) => m.type === "progress"));
});

test("a correct solution passes in both views, with extractor-style names", async () => {
  let t = performance.now();
  const first = await engine.run(request({ id: 7 }));
  const firstMs = performance.now() - t;
  t = performance.now();
  const warm = await engine.run(request({ id: 8 }));
  const warmMs = performance.now() - t;
  console.log(
    `[timing] first run: ${ms(firstMs)} (eval ${ms(first.timings.eval_ms)}, pytest ${ms(first.timings.pytest_ms)}); ` +
      `warm run: ${ms(warmMs)} (eval ${ms(warm.timings.eval_ms)}, pytest ${ms(warm.timings.pytest_ms)})`,
  );

  for (const reply of [first, warm]) {
    assert.equal(reply.type, "result", reply.message);
    assert.deepEqual(reply.evals.map((e) => [e.id, e.outcome]), ASSERTIONS.map((a) => [a.id, "pass"]));
    const tests = byName(reply);
    assert.deepEqual(Object.keys(tests).sort(), ["TestA::test_b", "test_sq[2-4]", "test_sq[3-9]", "test_x"]);
    for (const t of Object.values(tests)) assert.equal(t.outcome, "passed", t.message);
    assert.equal(tests["TestA::test_b"].nodeid, "test_sq.py::TestA::test_b");
    assert.equal(reply.pytest.exit_code, 0);
    assert.match(reply.pytest.output, /4 passed/);
    assert.equal(typeof reply.timings.eval_ms, "number");
    assert.equal(typeof reply.timings.pytest_ms, "number");
    assert.ok(reply.memory_bytes > 0);
  }
  assert.equal(first.id, 7);
  assert.equal(warm.id, 8);
});

test("a buggy solution fails in both views", async () => {
  const reply = await engine.run(request({ solution: SOLUTION.replace("x * x", "x + x") }));
  assert.equal(reply.type, "result", reply.message);
  const tests = byName(reply);
  assert.equal(tests["test_x"].outcome, "failed");
  assert.match(tests["test_x"].crash, /assert 6 == 9/);
  assert.ok(tests["test_x"].message.length > 0);
  assert.equal(tests["test_sq[2-4]"].outcome, "passed"); // 2 + 2 == 2 * 2
  assert.equal(tests["test_sq[3-9]"].outcome, "failed");
  assert.equal(reply.pytest.exit_code, 1);
  const evals = Object.fromEntries(reply.evals.map((e) => [e.id, e]));
  assert.equal(evals["x"].outcome, "fail");
  assert.equal(evals["x"].value, "False");
  assert.equal(evals["sq-2"].outcome, "pass");
});

test("an assertion with an undefined name is an error, not a failure", async () => {
  const reply = await engine.run(request({ test_source: null, assertions: [{ id: 1, expr: "random.randint(1, 2) > 0" }] }));
  assert.equal(reply.type, "result", reply.message);
  assert.equal(reply.pytest, null); // no test source: pytest skipped
  const [e] = reply.evals;
  assert.equal(e.outcome, "error");
  assert.equal(e.phase, "assertion");
  assert.match(e.error, /^NameError: name 'random' is not defined/);
});

test("a solution that fails to import makes every assertion an error", async () => {
  const reply = await engine.run(request({ solution: "import does_not_exist\n" + SOLUTION }));
  assert.equal(reply.type, "result", reply.message);
  assert.equal(reply.evals.length, ASSERTIONS.length);
  for (const e of reply.evals) {
    assert.equal(e.outcome, "error");
    assert.equal(e.phase, "solution");
    assert.match(e.error, /ModuleNotFoundError: No module named 'does_not_exist'/);
  }
  // pytest cannot import the test module: a collection error, exit code 2.
  assert.equal(reply.pytest.tests.length, 0);
  assert.equal(reply.pytest.collection_errors.length, 1);
  assert.match(reply.pytest.collection_errors[0].message, /does_not_exist/);
  assert.equal(reply.pytest.exit_code, 2);

  const syntax = await engine.run(request({ solution: "def sq(x) return x\n", test_source: null }));
  for (const e of syntax.evals) {
    assert.equal(e.outcome, "error");
    assert.match(e.error, /^SyntaxError/);
  }
});

test("bindings: the expression's builtins are the real ones, whatever the solution defines", async () => {
  // A candidate that redefines builtins: in version 1's namespace (its own globals) they changed
  // what `sorted` and `__import__` meant in the test's expressions.
  const rigged = `def result():\n    return []\n\ndef sorted(*a, **k):\n    return [1, 2, 3]\n\n` +
    `class _Fake:\n    pi = 3\n\ndef __import__(*a, **k):\n    return _Fake()\n\n__builtins__ = {}\n`;
  const assertions = [
    { id: "sorted", expr: "sorted(result()) == [1, 2, 3]" },
    { id: "import", expr: "__import__('math').pi == 3" },
  ];
  const bindings = [{ kind: "attr", name: "result", module: "solution", attr: "result" }];
  const v2 = await engine.run(request({ solution: rigged, test_source: null, assertions, bindings }));
  assert.equal(v2.type, "result", v2.message);
  assert.deepEqual(v2.evals.map((e) => e.outcome), ["fail", "fail"]);
  const v1 = await engine.run(request({ solution: rigged, test_source: null, assertions }));
  assert.deepEqual(v1.evals.map((e) => e.outcome), ["pass", "pass"], "no bindings: version 1's namespace");

  // A name the solution lacks errors every assertion, as pytest fails to collect the file.
  const missing = await engine.run(
    request({ test_source: null, bindings: [{ kind: "attr", name: "cube", module: "solution", attr: "cube" }] }),
  );
  assert.equal(missing.evals.length, ASSERTIONS.length);
  for (const e of missing.evals) {
    assert.equal(e.outcome, "error");
    assert.equal(e.phase, "solution");
    assert.equal(e.error, "ImportError: cannot import name 'cube' from 'solution'");
  }

  // The bindings this file's imports give: both views agree.
  const both = await engine.run(
    request({
      bindings: [
        { kind: "attr", name: "sq", module: "solution", attr: "sq" },
        { kind: "attr", name: "Counter", module: "solution", attr: "Counter" },
      ],
    }),
  );
  assert.deepEqual(both.evals.map((e) => e.outcome), ASSERTIONS.map(() => "pass"));
  assert.ok(Object.values(byName(both)).every((t) => t.outcome === "passed"));
});

test("re-running with changed code sees the new code", async () => {
  const run = (body) =>
    engine.run(request({ solution: `def sq(x):\n    return ${body}\n\nclass Counter:\n    n = 2\n    def add(self, k):\n        return self\n` }));
  const a = await run("x * x");
  const b = await run("x ** 3");
  const c = await run("x * x");
  assert.equal(byName(a)["test_x"].outcome, "passed");
  assert.equal(byName(b)["test_x"].outcome, "failed");
  assert.match(byName(b)["test_x"].crash, /assert 27 == 9/);
  assert.equal(b.evals[0].outcome, "fail");
  assert.equal(byName(c)["test_x"].outcome, "passed");
  assert.equal(c.evals[0].outcome, "pass");
  // The test file changes too.
  const d = await engine.run(request({ test_source: "from solution import sq\n\ndef test_only():\n    assert sq(4) == 16\n" }));
  assert.deepEqual(d.pytest.tests.map((t) => [t.name, t.outcome]), [["test_only", "passed"]]);
});

test("an output flood is capped in both views", async () => {
  const flood = "def noisy():\n    for i in range(10**6):\n        print(i)\n    return True\n";
  const t = performance.now();
  const reply = await engine.run({
    type: "run",
    id: "flood",
    solution: flood,
    test_source: "from solution import noisy\n\ndef test_noisy():\n    assert not noisy()\n",
    test_filename: "test_noisy.py",
    assertions: [{ id: 1, expr: "noisy()" }],
  });
  console.log(`[timing] flood of 10^6 prints, both views: ${ms(performance.now() - t)}`);
  assert.equal(reply.type, "result", reply.message);
  const [e] = reply.evals;
  assert.equal(e.outcome, "pass");
  assert.ok(e.output.length < 70_000, `eval output is ${e.output.length} characters`);
  assert.match(e.output, /\[output truncated: \d+ more characters not shown\]/);
  assert.equal(reply.pytest.tests[0].outcome, "failed");
  assert.ok(reply.pytest.output.length < 70_000, `pytest output is ${reply.pytest.output.length} characters`);
  assert.match(reply.pytest.output, /output truncated/);
});

test("the engine survives Python exceptions escaping the runner", async () => {
  const bad = await engine.run(request({ id: "bad", assertions: "not a list" }));
  assert.equal(bad.type, "error");
  assert.equal(bad.id, "bad");
  assert.equal(bad.python_type, "TypeError");
  assert.match(bad.message, /assertions must be a list/);

  const badName = await engine.run(request({ id: "bad2", test_filename: "solution.py" }));
  assert.equal(badName.type, "error");
  assert.equal(badName.python_type, "ValueError");

  const unknown = await engine.run({ type: "nope", id: 3 });
  assert.equal(unknown.type, "error");

  // sys.exit in the solution or in an assertion is an ordinary error result.
  const exits = await engine.run(request({ solution: "import sys\nsys.exit(3)\n", test_source: null }));
  assert.equal(exits.type, "result");
  assert.match(exits.evals[0].error, /^SystemExit: 3/);

  const ok = await engine.run(request({ id: "after" }));
  assert.equal(ok.type, "result", ok.message);
  assert.ok(ok.evals.every((e) => e.outcome === "pass"));
  assert.equal(engine.fatal, null);
});

test("a stale interrupt left in the buffer does not hit the next run", async () => {
  const buffer = new Int32Array(new SharedArrayBuffer(4));
  engine.setInterruptBuffer(buffer);
  try {
    buffer[0] = 2; // as if the page's repeated write landed after the last run ended
    const reply = await engine.run(request({ id: "stale" }));
    assert.equal(reply.type, "result", reply.message);
    assert.ok(reply.evals.every((e) => e.outcome === "pass"));
    assert.equal(buffer[0], 0);
  } finally {
    engine.setInterruptBuffer(undefined);
  }
});

// Last: it leaves this engine unusable on purpose.
test("os._exit kills Pyodide: reported as fatal, and every later run says so", async () => {
  const exitCode = process.exitCode;
  const dead = await engine.run(request({ id: "exit", solution: "import os\nos._exit(1)\n", test_source: null }));
  // Under Node, Emscripten's exit() also sets process.exitCode: undo that, it is not a test failure.
  process.exitCode = exitCode;
  assert.equal(dead.type, "error");
  assert.equal(dead.fatal, true);
  const after = await engine.run(request({ id: "later" }));
  assert.equal(after.type, "error");
  assert.equal(after.fatal, true);
  assert.equal(after.id, "later");
});
