// Starts the page: loads the editor bundle, then the wasm (its module and file names come from the
// <script> tag Trunk writes, see Trunk.toml), and draws the error banner if anything dies. The banner
// lives here, outside the wasm, so it still works after the wasm has trapped.

const RESCUE_KEY = "bench-explorer:rescue";

// Metrics and test hooks; the wasm fills in the rest (see crates/web/src/engine.rs).
const hook = (window.__benchExplorer = window.__benchExplorer || {});
hook.ready = false;
hook.bootStartedMs = performance.now();

// The remembered theme, before anything is drawn (the wasm keeps it up to date afterwards).
try {
  const theme = localStorage.getItem("bench-explorer:theme");
  if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
} catch {
  // Storage can be unavailable (privacy settings): the system theme applies.
}

function saveRescue() {
  try {
    const editor = hook.editor;
    if (!editor) return false;
    sessionStorage.setItem(
      RESCUE_KEY,
      JSON.stringify({ source: editor.getDoc(), file: hook.currentFile || "", stage: hook.currentStage || "" }),
    );
    return true;
  } catch {
    return false;
  }
}

function showFatal(message) {
  hook.errors = (hook.errors || 0) + 1;
  hook.lastError = String(message);
  const box = document.getElementById("fatal");
  if (!box) return;
  const kept = saveRescue();
  box.replaceChildren();
  const text = document.createElement("div");
  text.className = "fatal-text";
  const title = document.createElement("strong");
  title.textContent = "Something went wrong. ";
  const body = document.createElement("span");
  body.textContent = kept
    ? "The results on screen are from the last extraction that worked. You can keep editing, or reload: your file comes back, with live extraction paused."
    : "The page could not finish starting.";
  const detail = document.createElement("code");
  detail.className = "fatal-detail";
  detail.textContent = String(message).slice(0, 600);
  text.append(title, body, document.createElement("br"), detail);
  const actions = document.createElement("div");
  actions.className = "fatal-actions";
  const reload = document.createElement("button");
  reload.className = "btn";
  reload.textContent = kept ? "Reload, keeping my file" : "Reload";
  reload.addEventListener("click", () => {
    saveRescue();
    location.reload();
  });
  const close = document.createElement("button");
  close.className = "btn";
  close.textContent = "Dismiss";
  close.addEventListener("click", () => {
    box.hidden = true;
    // Dismissed: a later manual reload should not pause extraction.
    try {
      sessionStorage.removeItem(RESCUE_KEY);
    } catch {}
  });
  actions.append(reload, close);
  box.append(text, actions);
  box.dataset.testid = "fatal-banner";
  box.hidden = false;
}

window.__benchExplorerFatal = showFatal;

// The Python worker (www/py/, see its README), for the Run tab: the page (crates/web/src/python.rs) asks
// for it once it is interactive. Loaded on demand, so nothing of Pyodide delays the page. Every
// promise ends in exactly one callback (never an unhandled rejection, which would show the banner).
const errorText = (e) => String((e && e.message) || e);
window.benchPython = {
  // onProgress(stage, detail) for each start-up step; done(runner, null) or done(null, message).
  create(onProgress, done) {
    import("./py/client.mjs").then(
      ({ PyRunner }) => {
        let runner;
        try {
          runner = new PyRunner({
            onProgress: (m) =>
              onProgress(String(m.stage), typeof m.detail === "string" ? m.detail : JSON.stringify(m.detail ?? null)),
          });
        } catch (e) {
          done(null, errorText(e));
          return;
        }
        done(runner, null);
      },
      (e) => done(null, `the Python worker could not be loaded: ${errorText(e)}`),
    );
  },
  // done(replyJson, null) with PyRunner's reply, or done(null, message) when the run was rejected.
  run(runner, request, timeoutMs, done) {
    runner.run(request, { timeoutMs }).then(
      (reply) => done(JSON.stringify(reply), null),
      (e) => done(null, errorText(e)),
    );
  },
};
// The extraction worker (www/extract-worker.js): the page's own wasm, run off the main thread. The
// page (crates/web/src/engine.rs) asks through request(generation, requestJson, onReply); the
// editor's text is read when the worker is free, so a burst of edits costs one read. At most one
// request runs and one waits: a newer request replaces the waiting one, and cancels (terminates the
// worker) a running one that has run longer than CANCEL_AFTER_MS plus twice the worker's last
// completed request. A runaway extraction is stopped, but a worker that is doing what it did
// before is left to finish: terminating it also throws away its memo (the tests an edit did not
// touch), so typing in a 10 MB file, where a keystroke's extraction takes about a second with the
// memo and twenty without it, cancelled every request and showed a result twenty seconds after
// the last key. onReply(generation, {modified, parts} | {error}).
const CANCEL_AFTER_MS = 250;
// Small extractions on the page itself. The worker's round trip costs a frame or two (its reply waits
// behind the frame that draws the keystroke); a bench file's extraction takes under a millisecond.
// So a text of at most INLINE_MAX_CHARS is extracted synchronously, in a second instance of the
// same wasm module (a panic there traps that instance, never the page's: it is dropped and the
// worker answers), with a bound on what it may write (INLINE_MAX_EXPRESSION_CHARS of kept
// expressions: an extraction's cost grows with what it writes), so no input holds the main thread
// for long (benches/web.mjs measures the worst cases). A text that goes over the bound, or took
// longer than INLINE_SLOW_MS twice in a row, goes to the worker until the document is smaller again.
const INLINE_MAX_CHARS = 8_192;
const INLINE_MAX_EXPRESSION_CHARS = 16_384;
const INLINE_SLOW_MS = 12;
const inline = (() => {
  let bindings = null;
  let starting = false;
  let module = null;
  let urls = null;
  let namesTable = null;
  // Documents at least this long go to the worker (one was too slow or over the bound).
  let tooLongFrom = Infinity;
  let slowInARow = 0;
  let instances = 0;
  const stats = (hook.inline = { runs: 0, overBound: 0, slow: 0, crashes: 0, lastMs: null, longestMs: 0 });
  // Start an instance; resolves when it is ready (or could not start). Its warm-up waits until
  // the page is idle (`afterStart`), so it does not delay the page's first result.
  const start = (afterStart = Promise.resolve()) => {
    if (bindings || starting || !module || !urls) return Promise.resolve();
    starting = true;
    hook.inlineWarm = false;
    // A module of its own (another URL): wasm-bindgen's glue holds one instance per module, and
    // an instance that trapped is replaced by a new one.
    return import(`${urls.js}?inline=${++instances}`).then(
      (b) => {
        try {
          window.benchNoStart = true;
          b.initSync({ module });
          if (namesTable) b.benchRegisterNamesTable(namesTable);
          bindings = b;
          afterStart.then(() => warm(b));
        } catch {
          // No inline extraction: the worker does it all.
        } finally {
          window.benchNoStart = false;
          starting = false;
        }
      },
      () => {
        starting = false;
      },
    );
  };
  // Like the worker (www/extract-worker.js): the whole pipeline over the bench's files, one file
  // per task, so that the engine has optimized this instance's code before the first keystrokes.
  const warm = (b, step = 0) => {
    setTimeout(() => {
      let more = false;
      try {
        more = bindings === b && b.benchWorkerWarm(step);
      } catch {
        if (bindings === b) {
          stats.crashes++;
          bindings = null;
          start();
        }
      }
      if (more) warm(b, step + 1);
      else hook.inlineWarm = bindings === b;
    }, 0);
  };
  return {
    // The page's compiled module and URLs, before the page starts: its first result can then be
    // extracted here (a fresh worker must first fetch and compile the wasm). Resolves when ready.
    prepare(m, u, afterStart) {
      module = m;
      urls = u;
      return start(afterStart);
    },
    registerNamesTable(t) {
      namesTable = t;
      if (bindings) {
        try {
          bindings.benchRegisterNamesTable(t);
        } catch {}
      }
    },
    // Answer the request here if the text is small enough; whether it did.
    run(gen, request, onReply) {
      const editor = hook.editor;
      if (!bindings || !editor) return false;
      const n = editor.docLength();
      if (n > INLINE_MAX_CHARS || n >= tooLongFrom) return false;
      if (n < tooLongFrom * 0.9) tooLongFrom = Infinity;
      const t0 = performance.now();
      let r;
      try {
        r = bindings.benchInlineAnalyze(editor.getDoc(), request, INLINE_MAX_EXPRESSION_CHARS);
      } catch {
        // A trap (a panic) leaves this instance unusable: start a fresh one, let the worker answer.
        stats.crashes++;
        bindings = null;
        start();
        return false;
      }
      const ms = performance.now() - t0;
      stats.lastMs = ms;
      stats.longestMs = Math.max(stats.longestMs, ms);
      // Only once warmed up (the first runs of a fresh instance are slow for any text), and twice
      // in a row (one stall of the thread, a garbage collection, says nothing about the text).
      if (ms > INLINE_SLOW_MS && hook.inlineWarm) {
        stats.slow++;
        if (++slowInARow >= 2) tooLongFrom = n;
      } else {
        slowInARow = 0;
      }
      if (!r) {
        stats.overBound++;
        tooLongFrom = Math.min(tooLongFrom, n);
        return false;
      }
      stats.runs++;
      onReply(gen, { modified: r.modified, parts: r.parts, inline: true });
      return true;
    },
    // For the end-to-end tests: a real panic in the inline instance.
    crashForTest() {
      try {
        bindings && bindings.benchInlinePanic();
      } catch {
        stats.crashes++;
        bindings = null;
        start();
      }
    },
  };
})();
hook.crashInlineExtraction = () => inline.crashForTest();

// The page's compiled wasm module (start() sets it): the on-page instance and the extraction
// worker run it too, so the extractor is downloaded and compiled once.
let pageModule = null;

window.benchExtract = (() => {
  let worker = null;
  let running = null;
  let waiting = null;
  // How long the worker's last completed request took, from reading the text to the reply (ms).
  let lastRunMs = 0;
  // The Unicode names table, once a worker has loaded it (for a text with `\N`): given to every
  // worker started after, so a restarted worker does not fetch it again.
  let namesTable = null;
  const wasmUrls = () => {
    const me = document.querySelector("script[data-bench-js]");
    return {
      js: new URL(me.dataset.benchJs, document.baseURI).href,
      wasm: new URL(me.dataset.benchWasm, document.baseURI).href,
    };
  };
  const stop = () => {
    if (worker) worker.terminate();
    worker = null;
  };
  const finish = (reply) => {
    const job = running;
    running = null;
    // A worker whose wasm trapped is not reused.
    if (reply.error) stop();
    else if (job && job.gen === reply.gen) hook.workerLastRunMs = lastRunMs = performance.now() - job.started;
    if (reply.namesTable) {
      namesTable = reply.namesTable;
      inline.registerNamesTable(namesTable);
    }
    // How the worker got the page's wasm: "module" (the page's compiled module) or "fetched".
    if (reply.build) hook.workerBuild = reply.build;
    if (job && job.gen === reply.gen) job.onReply(job.gen, reply);
    next();
  };
  const spawn = () => {
    worker = new Worker(new URL("./extract-worker.js", import.meta.url), { type: "module", name: "bench-explorer extractor" });
    worker.onmessage = (e) => finish(e.data);
    worker.onerror = (e) => {
      e.preventDefault();
      finish({ gen: running ? running.gen : -1, error: e.message || "the extraction worker stopped" });
    };
    // The page's compiled module goes with it: the worker runs the page's wasm, and neither
    // downloads nor compiles it again. A browser that cannot send a module to a worker (a
    // DataCloneError) sends the URL: the worker fetches it, from the HTTP cache.
    const init = { type: "init", ...wasmUrls(), namesTable };
    try {
      worker.postMessage({ ...init, module: pageModule });
    } catch {
      worker.postMessage(init);
    }
  };
  const next = () => {
    if (running || !waiting) return;
    const job = waiting;
    waiting = null;
    const me = (running = { ...job, started: performance.now() });
    if (!worker) spawn();
    // The text goes in parts, a slice of the document per task; the worker joins them.
    const part = (text) => {
      if (running !== me) return false; // cancelled while reading (that worker is gone)
      worker.postMessage({ type: "part", text });
      return true;
    };
    const done = () => {
      if (running === me) worker.postMessage({ type: "extract", gen: job.gen, request: job.request });
    };
    if (hook.editor) hook.editor.readDoc(part, done);
    else (part(""), done());
  };
  return {
    // Start the worker before it is needed (the page's first results come from the on-page
    // instance), so that a large file does not wait for its start-up.
    prewarm() {
      if (!worker) spawn();
    },
    request(gen, request, onReply) {
      if (inline.run(gen, request, onReply)) {
        // Answered here: a request still waiting for the worker is stale.
        waiting = null;
        return;
      }
      waiting = { gen, request, onReply };
      if (running && performance.now() - running.started > CANCEL_AFTER_MS + 2 * lastRunMs) {
        hook.extractionsCancelled = (hook.extractionsCancelled || 0) + 1;
        running = null;
        stop();
      }
      next();
    },
  };
})();

window.addEventListener("error", (e) => {
  const msg = e.error ? `${e.error.name || "Error"}: ${e.error.message}` : e.message || "";
  if (/ResizeObserver loop/.test(msg)) return;
  showFatal(msg);
});
window.addEventListener("unhandledrejection", (e) => {
  const r = e.reason;
  showFatal(r && r.message ? `${r.name || "Error"}: ${r.message}` : String(r));
});

async function start() {
  const me = document.querySelector("script[data-bench-js]");
  if (!me) throw new Error("boot.js: the page has no wasm module to start");
  const editor = await import("./editor.js");
  window.benchEditor = editor;
  const bindings = await import(me.dataset.benchJs);
  const js = new URL(me.dataset.benchJs, document.baseURI).href;
  const wasmUrl = new URL(me.dataset.benchWasm, document.baseURI).href;
  // Compiled once: the page's instance and the inline extraction's share the module.
  const response = await fetch(wasmUrl);
  if (!response.ok) throw new Error(`failed to fetch the page's wasm: HTTP ${response.status}`);
  let module;
  try {
    module = await WebAssembly.compileStreaming(response.clone());
  } catch {
    // A server that does not send application/wasm.
    module = await WebAssembly.compile(await response.arrayBuffer());
  }
  // The on-page instance first (it answers the page's first extraction), then the page; the
  // warm-ups and the extraction worker once the page is idle.
  let started;
  const afterStart = new Promise((r) => (started = r)).then(() => new Promise((r) => (window.requestIdleCallback ? requestIdleCallback(r, { timeout: 2000 }) : setTimeout(r, 500))));
  pageModule = module;
  await inline.prepare(module, { js, wasm: wasmUrl }, afterStart);
  await bindings.default({ module_or_path: module });
  started();
  afterStart.then(() => window.benchExtract.prewarm());
  warmEditorWhenIdle();
}

// The editor's warm-up (editor.js's warmUp), once the page is idle, on the text it shows.
function warmEditorWhenIdle() {
  const go = () => {
    const e = hook.editor;
    if (!e || !window.benchEditor || !window.benchEditor.warmUp || e.docLength() > INLINE_MAX_CHARS || e.mode() !== "normal") return;
    window.benchEditor.warmUp(e.getDoc(), () => (hook.editorWarm = true));
  };
  if (window.requestIdleCallback) requestIdleCallback(go, { timeout: 3000 });
  else setTimeout(go, 1000);
}

start().catch((e) => {
  const status = document.querySelector("#boot-status .boot-text");
  if (status) status.textContent = "The page could not start. It needs a browser with WebAssembly, served over http(s).";
  showFatal(`${(e && e.name) || "Error"}: ${(e && e.message) || e}`);
});
