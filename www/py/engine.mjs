// The Python engine behind the Web Worker: start Pyodide, install the pytest
// wheels, import pytest and runner.py, then answer `run` messages.
//
// Environment-neutral on purpose: every way of reaching a file is injected, so the
// browser worker (worker.mjs, which uses fetch) and the Node tests (which read
// from disk) drive exactly the same code.
//
// Message protocol (the worker forwards these as they are):
//
//   request  {type: "run", id, solution: str, test_source: str | null,
//             test_filename: str, assertions: [{id, expr}], bindings?: [Binding] | null}
//   Binding  {kind: "module", name, module} | {kind: "attr", name, module, attr}
//          | {kind: "star", module} | {kind: "globals", module}
//            the extraction's `bindings` (contract version 2): runner.build_namespace
//            makes each expression's namespace from them (the real builtins, then what
//            the test file imported from the solution); missing or null: version 1,
//            the solution module's own globals
//   reply    {type: "result", id, evals: [...], pytest: {...} | null,
//             timings: {eval_ms, pytest_ms, total_ms}, memory_bytes}
//         or {type: "error", id, message, python_type?, interrupted?, fatal?, memory_bytes}
//
// `run` never throws: whatever goes wrong becomes an `error` reply. `fatal: true`
// means Pyodide itself is broken (the solution called os._exit, a wasm trap) and
// the engine must be replaced; `interrupted: true` means the run was stopped
// through the interrupt buffer (KeyboardInterrupt). Python running out of memory is
// not fatal: it is a MemoryError inside the results, and `memory_bytes` (the wasm
// heap, which never shrinks) tells the client when to replace the worker anyway.

/** A plain Uint8Array view: Pyodide rejects subclasses such as Node's Buffer. */
function plainBytes(bytes) {
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (ArrayBuffer.isView(bytes)) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  throw new TypeError("readWheel must return an ArrayBuffer or a typed array");
}

/** Name of the Python module that runner.py is loaded as. */
const RUNNER_MODULE = "bench_explorer_runner";

/**
 * @param {object} options
 * @param {(opts: object) => Promise<any>} options.loadPyodide  pyodide's loadPyodide
 * @param {string} options.indexURL  where pyodide.asm.wasm, python_stdlib.zip and pyodide-lock.json are
 * @param {() => Promise<string[]>} options.listWheels  wheel file names to install
 * @param {(name: string) => Promise<ArrayBuffer | Uint8Array>} options.readWheel  bytes of one wheel
 * @param {string | (() => Promise<string>)} options.runnerSource  source of runner.py
 * @param {(msg: {type: "progress", stage: string, detail: any}) => void} [options.onProgress]
 * @param {object} [options.pyodideOptions]  extra options for loadPyodide (stdout, stderr, ...)
 */
export async function createEngine({
  loadPyodide,
  indexURL,
  listWheels,
  readWheel,
  runnerSource,
  onProgress = () => {},
  pyodideOptions = {},
}) {
  const startup = {};
  const progress = (stage, detail) => onProgress({ type: "progress", stage, detail });
  const now = () => performance.now();
  let t = now();

  progress("pyodide", "loading the Python runtime");
  const pyodide = await loadPyodide({ indexURL, ...pyodideOptions });
  startup.pyodide_ms = now() - t;

  t = now();
  const wheels = await listWheels();
  if (!Array.isArray(wheels) || wheels.length === 0) {
    throw new Error("no pytest wheels listed (is vendor/wheels/index.json generated? run scripts/setup.sh)");
  }
  // Wheels go straight into site-packages: unpackArchive would otherwise extract
  // into the current directory, which the runner changes during a pytest run.
  const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
  for (const name of wheels) {
    progress("wheels", name);
    const bytes = await readWheel(name);
    pyodide.unpackArchive(plainBytes(bytes), "wheel", { extractDir: sitePackages });
  }
  startup.wheels_ms = now() - t;

  t = now();
  progress("pytest", "importing pytest");
  pyodide.runPython("import pytest");
  const source = typeof runnerSource === "function" ? await runnerSource() : runnerSource;
  // Load runner.py as a real module (so tracebacks and sys.modules look normal).
  const loadModule = pyodide.runPython(`
import sys, types
def _load(name, source):
    module = types.ModuleType(name)
    module.__file__ = "/bench_explorer/runner.py"
    sys.modules[name] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module.run_request_json
_load`);
  const runRequestJson = loadModule(RUNNER_MODULE, source);
  loadModule.destroy();
  startup.pytest_ms = now() - t;
  progress("ready", { ...startup });

  // Size of the wasm heap. It never shrinks: after a run that grabbed a lot (a
  // MemoryError at the 4 GB limit), only a new worker gives the memory back, so the
  // client replaces the worker when this is large. (_module is Pyodide's Emscripten
  // module: not public API, hence the guard.)
  const memoryBytes = () => pyodide._module?.HEAPU8?.byteLength ?? null;

  let fatal = null; // set once Pyodide has failed beyond repair
  let interruptBuffer = null;

  /** Turn anything thrown by Pyodide into an error reply. */
  function errorReply(id, err) {
    const reply = { type: "error", id, message: String(err?.message ?? err) };
    if (typeof err?.type === "string") {
      // A PythonError: an exception escaped runner.py; Python itself is fine.
      reply.python_type = err.type;
      if (err.type === "KeyboardInterrupt") reply.interrupted = true;
    } else {
      // Anything else means the runtime itself failed: os._exit() ("Program
      // terminated with exit(1)"), a wasm trap, JS out of memory. Pyodide refuses
      // every later call then, so the engine reports itself unusable.
      fatal = reply.message;
      reply.fatal = true;
    }
    return reply;
  }

  async function run(msg) {
    const id = msg?.id ?? null;
    if (fatal) return { type: "error", id, fatal: true, message: `Python runtime is unusable: ${fatal}` };
    if (msg?.type !== "run") return { type: "error", id, message: `unknown message type ${JSON.stringify(msg?.type)}` };
    const started = now();
    try {
      if (interruptBuffer) {
        // A stale interrupt (the client repeats its write until Python reacts) must
        // not hit this run: clear the buffer, then let Python drop a signal it has
        // already taken from the buffer but not yet raised.
        interruptBuffer[0] = 0;
        try {
          pyodide.checkInterrupt();
        } catch {
          // the KeyboardInterrupt of that stale signal: dropped
        }
      }
      const request = {
        solution: msg.solution,
        test_source: msg.test_source ?? null,
        test_filename: msg.test_filename ?? "",
        assertions: msg.assertions ?? [],
        bindings: msg.bindings ?? null,
      };
      const out = JSON.parse(runRequestJson(JSON.stringify(request)));
      out.timings.total_ms = now() - started;
      return { type: "result", id, ...out, memory_bytes: memoryBytes() };
    } catch (err) {
      return { ...errorReply(id, err), memory_bytes: memoryBytes() };
    }
  }

  return {
    pyodide,
    /** Start-up timings in ms: {pyodide_ms, wheels_ms, pytest_ms}. */
    startup,
    run,
    get fatal() {
      return fatal;
    },
    /** Use an Int32Array/Uint8Array over a SharedArrayBuffer; write 2 into it to interrupt. */
    setInterruptBuffer(buffer) {
      interruptBuffer = buffer;
      pyodide.setInterruptBuffer(buffer);
    },
  };
}
