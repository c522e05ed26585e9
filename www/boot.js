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
// worker) a running one older than CANCEL_AFTER_MS. onReply(generation, {modified, parts} | {error}).
const CANCEL_AFTER_MS = 250;
window.benchExtract = (() => {
  let worker = null;
  let running = null;
  let waiting = null;
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
    if (reply.namesTable) namesTable = reply.namesTable;
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
    worker.postMessage({ type: "init", ...wasmUrls(), namesTable });
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
    request(gen, request, onReply) {
      waiting = { gen, request, onReply };
      if (running && performance.now() - running.started > CANCEL_AFTER_MS) {
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
  await bindings.default({ module_or_path: me.dataset.benchWasm });
}

start().catch((e) => {
  const status = document.querySelector("#boot-status .boot-text");
  if (status) status.textContent = "The page could not start. It needs a browser with WebAssembly, served over http(s).";
  showFatal(`${(e && e.name) || "Error"}: ${(e && e.message) || e}`);
});
