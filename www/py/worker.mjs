// Module Web Worker that runs Python with Pyodide, fully offline.
//
//   new Worker(new URL("py/worker.mjs", base), {type: "module"})
//
// Every asset comes from the same origin, relative to this file:
//   ../vendor/pyodide/   pyodide.mjs, pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json
//   ../vendor/wheels/    index.json ({"wheels": [file names]}) and the pytest wheels
//   ./runner.py, ./engine.mjs
//
// Messages in:  {type: "run", id, solution, test_source, test_filename, assertions: [{id, expr}],
//                bindings?: [Binding] | null}   the extraction's bindings (see engine.mjs)
//               {type: "interrupt-buffer", buffer: SharedArrayBuffer}   (cross-origin isolated pages only)
// Messages out: {type: "progress", stage: "pyodide" | "wheels" | "pytest" | "ready", detail}
//               {type: "init-error", message}        start-up failed; this worker is useless
//               {type: "result", id, evals, pytest, timings}
//               {type: "error", id, message, ...}    see engine.mjs
// The worker never dies from a Python exception: each one becomes an `error` reply.

import { createEngine } from "./engine.mjs";

const vendorURL = new URL("../vendor/", import.meta.url);
const pyodideURL = new URL("pyodide/", vendorURL);
const wheelsURL = new URL("wheels/", vendorURL);

async function fetchOk(url, kind) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot load ${url}: HTTP ${response.status}`);
  return response[kind]();
}

let initError = null;
let interruptBuffer = null;
const post = (msg) => self.postMessage(msg);

const enginePromise = (async () => {
  const { loadPyodide } = await import(new URL("pyodide.mjs", pyodideURL).href);
  return createEngine({
    loadPyodide,
    indexURL: pyodideURL.href,
    listWheels: async () => (await fetchOk(new URL("index.json", wheelsURL), "json")).wheels,
    readWheel: (name) => fetchOk(new URL(name, wheelsURL), "arrayBuffer"),
    runnerSource: () => fetchOk(new URL("./runner.py", import.meta.url), "text"),
    onProgress: post,
  });
})().then(
  (engine) => {
    if (interruptBuffer) engine.setInterruptBuffer(interruptBuffer);
    return engine;
  },
  (err) => {
    initError = String(err?.message ?? err);
    post({ type: "init-error", message: initError });
    return null;
  },
);

// Registered before any await so that no message posted during start-up is lost;
// each handler waits for the engine. Python runs synchronously, so replies leave
// in the order the requests came.
self.addEventListener("message", async (event) => {
  const msg = event.data ?? {};
  if (msg.type === "interrupt-buffer") {
    // Only useful where SharedArrayBuffer exists (a cross-origin isolated page).
    if (typeof SharedArrayBuffer !== "undefined" && msg.buffer instanceof SharedArrayBuffer) {
      interruptBuffer = new Int32Array(msg.buffer);
      const engine = await enginePromise;
      if (engine) engine.setInterruptBuffer(interruptBuffer);
    }
    return;
  }
  const engine = await enginePromise;
  if (!engine) {
    post({ type: "error", id: msg.id ?? null, message: `Python failed to start: ${initError}` });
    return;
  }
  post(await engine.run(msg));
});
