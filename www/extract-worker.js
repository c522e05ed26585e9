// The extraction worker: the extractor's wasm run off the main thread. It runs the page's own
// wasm (one download and one compilation for the page, its on-page instance and this worker): the
// page sends its compiled WebAssembly.Module, or, where a module cannot be sent, the wasm's URL,
// fetched here from the HTTP cache. The page's `main` starts nothing here (there is no window).
// Each request calls benchWorkerAnalyze (crates/web/src/worker.rs), which extracts, compares with
// the faithful extractor, groups, and returns the result as JSON parts for the page to decode a
// few at a time.
//
// Messages in: {type: "init", js, wasm, module?, namesTable?} once, then for each request {type: "part", text} one or more
// times (the text, in order) and {type: "extract", gen, request}.
// Messages out: {gen, build, modified, parts: [Uint8Array of UTF-8 JSON], namesTable?, namesNotice?}
// or {gen, build, error}; `build` says how the worker got the page's wasm: "module" (sent by the page)
// or "fetched". For a text that contains `\N`, benchWorkerAnalyze first fetches the Unicode names
// table (unicode-names-<hash>.bin, next to this file) with a synchronous request, once.

let bindings = null;
let failed = null;
let build = null;
const queue = [];

function run(m) {
  if (failed) {
    self.postMessage({ gen: m.gen, build, error: `the extraction worker could not start: ${failed}` });
    return;
  }
  try {
    // The end-to-end tests make a request slow (tests/e2e/inline.test.mjs: cancellation).
    if (self.benchDelayMs > 0) for (const end = performance.now() + self.benchDelayMs; performance.now() < end; );
    const r = bindings.benchWorkerAnalyze(m.text, m.request);
    // The parts' buffers are transferred, not copied (nothing to deserialize on the page's thread).
    const out = { gen: m.gen, build, modified: r.modified, parts: r.parts };
    const transfer = r.parts.map((p) => p.buffer);
    // The Unicode names table, the once this request loaded it (for a text with `\N`; the page's
    // own extractions need it too), or why it could not be loaded (crates/unicode-names).
    if (r.namesTable) {
      out.namesTable = r.namesTable;
      transfer.push(r.namesTable.buffer);
    }
    if (r.namesNotice) out.namesNotice = r.namesNotice;
    // Test cases the extraction reused from the worker's memo, and flattened: [reused, flattened].
    if (r.memo) out.memo = r.memo;
    self.postMessage(out, transfer);
    release();
  } catch (e) {
    self.postMessage({ gen: m.gen, build, error: String((e && e.message) || e) });
  }
}

// What a request's extraction no longer needs (its syntax tree, the previous memo) is freed after
// its reply has been posted, in a task of its own, not before the reply.
let releasing = false;
function release() {
  if (releasing || !bindings.benchWorkerRelease) return;
  releasing = true;
  setTimeout(() => {
    releasing = false;
    try {
      bindings.benchWorkerRelease();
    } catch {}
  }, 0);
}

// Warm-up: with nothing else to do after start-up, the whole pipeline runs over the bench's files,
// one file per task (a request waits for one step at most), so that the engine optimizes the
// extractor's code before the user's first keystrokes rather than during them.
// Then keystrokes in a generated file (benchWorkerWarmKeys: the memo's reuse and the reply's
// delta), a step per task: without them the first keystrokes in a large file ran unoptimized code,
// four to eight times slower than later ones.
let warmStep = 0;
let warmKeys = false;
function warm() {
  if (!bindings || warmStep < 0) return;
  setTimeout(() => {
    try {
      const more = warmKeys ? bindings.benchWorkerWarmKeys && bindings.benchWorkerWarmKeys(warmStep++) : bindings.benchWorkerWarm(warmStep++);
      if (more) return warm();
      if (!warmKeys) {
        warmKeys = true;
        warmStep = 0;
        return warm();
      }
      warmStep = -1;
    } catch {
      warmStep = -1;
    }
  }, 0);
}

// The text of the next request, in parts (the page reads a large document a slice at a time).
let parts = [];

self.onmessage = async (e) => {
  const m = e.data;
  if (m.type === "part") {
    parts.push(m.text);
    return;
  }
  if (m.type === "extract") {
    m.text = parts.join("");
    parts = [];
  }
  if (m.type === "init") {
    try {
      const b = await import(m.js);
      await b.default({ module_or_path: m.module || m.wasm });
      // The names table a previous worker loaded (the page keeps it): no need to fetch it again.
      if (m.namesTable) b.benchRegisterNamesTable(m.namesTable);
      bindings = b;
      build = m.module ? "module" : "fetched";
    } catch (err) {
      failed = String((err && err.message) || err);
    }
    for (const q of queue.splice(0)) run(q);
    warm();
    return;
  }
  if (!bindings && !failed) queue.push(m);
  else run(m);
};
