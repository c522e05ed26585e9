// Page-side handle on the Python worker (worker.mjs).
//
//   const runner = new PyRunner({workerUrl, onProgress});
//   const reply = await runner.run({solution, test_source, test_filename, assertions, bindings}, {timeoutMs: 20000});
//
// `run` resolves with one of
//   {type: "result", id, evals, pytest, timings, memory_bytes}   the run finished
//   {type: "error", id, message, python_type?, interrupted?, fatal?, memory_bytes?}
//                                                        the worker reported an error (it lives on;
//                                                        after `fatal` it is replaced in the background)
//   {type: "timeout", id, timeoutMs, restarted}          the time limit passed; `restarted: true` means
//                                                        the worker was terminated and a fresh one is
//                                                        starting, `false` that the interrupt buffer
//                                                        stopped Python and the worker was kept
// and rejects with an Error when the worker itself crashed (its `error` event: it is restarted),
// could not start, or the runner was disposed.
//
// Runs are queued: a second `run` while one is running waits its turn, and its time limit starts
// only when it is handed to a ready worker (so Pyodide's start-up never counts against it).

const DEFAULT_TIMEOUT_MS = 20_000;
const INTERRUPT_REPEAT_MS = 100;

export class PyRunner {
  #workerUrl;
  #onProgress;
  #WorkerCtor;
  #useInterrupt;
  #interruptGraceMs;
  #recycleAboveBytes;

  #worker = null;
  #workerState = "loading"; // "loading" | "ready" | "failed"
  #failure = null; // message of the last start-up failure
  #interruptView = null; // Int32Array over a SharedArrayBuffer, when usable
  #queue = []; // jobs not yet handed to the worker
  #current = null; // the job the worker is running
  #seq = 0;
  #disposed = false;
  #readyWaiters = [];

  /**
   * @param {object} options
   * @param {string | URL} [options.workerUrl]  URL of worker.mjs (default: next to this file)
   * @param {(msg: {type: "progress", stage: string, detail: any}) => void} [options.onProgress]
   *        worker progress (stages pyodide, wheels, pytest, ready) and the runner's own
   *        (restart, failed)
   * @param {typeof Worker} [options.Worker]  Worker constructor (tests inject a fake)
   * @param {boolean} [options.useInterrupt]  try the interrupt buffer before terminating on
   *        timeout; default: only where the page is cross-origin isolated
   * @param {number} [options.interruptGraceMs]  how long an interrupted run may take to stop
   * @param {number} [options.recycleAboveBytes]  replace the worker (in the background, after
   *        delivering the reply) once its wasm heap has grown past this: the heap never shrinks
   */
  constructor({
    workerUrl = new URL("./worker.mjs", import.meta.url),
    onProgress = () => {},
    Worker: WorkerCtor = globalThis.Worker,
    useInterrupt = globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer !== "undefined",
    interruptGraceMs = 1000,
    recycleAboveBytes = 1024 ** 3,
  } = {}) {
    if (typeof WorkerCtor !== "function") throw new Error("PyRunner needs Web Workers");
    this.#workerUrl = workerUrl;
    this.#onProgress = onProgress;
    this.#WorkerCtor = WorkerCtor;
    this.#useInterrupt = useInterrupt;
    this.#interruptGraceMs = interruptGraceMs;
    this.#recycleAboveBytes = recycleAboveBytes;
    this.#startWorker();
  }

  /** "loading" | "ready" | "running" | "failed" | "disposed" */
  get state() {
    if (this.#disposed) return "disposed";
    if (this.#current) return "running";
    return this.#workerState;
  }

  /** Resolves once a worker is ready; rejects if it fails to start. */
  whenReady() {
    if (this.#workerState === "ready") return Promise.resolve();
    if (this.#workerState === "failed") return Promise.reject(new Error(this.#failure));
    return new Promise((resolve, reject) => this.#readyWaiters.push({ resolve, reject }));
  }

  /**
   * @param {{id?: any, solution: string, test_source?: string | null, test_filename?: string,
   *          assertions?: {id: any, expr: string}[], bindings?: object[] | null}} request
   *        `bindings`: the extraction's (contract version 2), forwarded as they are; missing or
   *        null: version 1, each expression evaluated in the solution module's own globals
   * @param {{timeoutMs?: number}} [options]  0 or Infinity: no limit
   */
  run(request, { timeoutMs = DEFAULT_TIMEOUT_MS } = {}) {
    if (this.#disposed) return Promise.reject(new Error("PyRunner is disposed"));
    // A worker that failed to start gets a new try when someone asks for a run.
    if (this.#workerState === "failed") this.#restart("retrying after a failed start");
    return new Promise((resolve, reject) => {
      this.#queue.push({ request, timeoutMs, resolve, reject });
      this.#pump();
    });
  }

  /** Stop the worker and reject every pending run. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#worker?.terminate();
    this.#worker = null;
    this.#failAll(new Error("PyRunner is disposed"));
  }

  // ------------------------------------------------------------------ worker life

  #startWorker() {
    const worker = new this.#WorkerCtor(this.#workerUrl, { type: "module" });
    this.#worker = worker;
    this.#workerState = "loading";
    // Handlers check `worker === this.#worker`: a terminated worker's late events are ignored.
    worker.addEventListener("message", (event) => {
      if (worker === this.#worker) this.#onMessage(event.data);
    });
    const onError = (event) => {
      event?.preventDefault?.(); // keep it out of the page's console as an uncaught error
      if (worker === this.#worker) this.#onWorkerError(event);
    };
    worker.addEventListener("error", onError);
    worker.addEventListener("messageerror", onError);

    this.#interruptView = null;
    if (this.#useInterrupt && typeof SharedArrayBuffer !== "undefined") {
      try {
        const buffer = new SharedArrayBuffer(4);
        worker.postMessage({ type: "interrupt-buffer", buffer });
        this.#interruptView = new Int32Array(buffer);
      } catch {
        this.#interruptView = null; // not cross-origin isolated after all
      }
    }
  }

  #restart(reason) {
    this.#worker?.terminate();
    this.#onProgress({ type: "progress", stage: "restart", detail: reason });
    this.#startWorker();
  }

  #onMessage(msg) {
    switch (msg?.type) {
      case "progress":
        if (msg.stage === "ready") {
          this.#workerState = "ready";
          this.#failure = null;
          for (const w of this.#readyWaiters.splice(0)) w.resolve();
        }
        this.#onProgress(msg);
        this.#pump();
        return;
      case "init-error":
        this.#startFailed(`Python failed to start: ${msg.message}`);
        return;
      case "result":
      case "error":
        this.#onReply(msg);
        return;
    }
  }

  #onWorkerError(event) {
    const message = event?.message || (event?.type === "messageerror" ? "a message could not be read" : "unknown error");
    if (this.#workerState !== "ready") {
      // It never got going (a missing file, a syntax error): restarting would loop.
      this.#startFailed(`Python worker failed to start: ${message}`);
      return;
    }
    const job = this.#current;
    this.#current = null;
    if (job) {
      this.#settle(job);
      job.reject(new Error(`Python worker crashed: ${message}`));
    }
    this.#restart(`worker crashed: ${message}`);
  }

  #startFailed(message) {
    this.#workerState = "failed";
    this.#failure = message;
    this.#worker?.terminate();
    this.#onProgress({ type: "progress", stage: "failed", detail: message });
    this.#failAll(new Error(message));
  }

  #failAll(error) {
    const jobs = [...(this.#current ? [this.#current] : []), ...this.#queue.splice(0)];
    this.#current = null;
    for (const job of jobs) {
      this.#settle(job);
      job.reject(error);
    }
    for (const w of this.#readyWaiters.splice(0)) w.reject(error);
  }

  // ------------------------------------------------------------------ jobs

  #pump() {
    if (this.#disposed || this.#current || this.#workerState !== "ready" || this.#queue.length === 0) return;
    const job = this.#queue.shift();
    job.seq = ++this.#seq;
    this.#current = job;
    const { request } = job;
    this.#worker.postMessage({
      type: "run",
      id: job.seq,
      solution: request.solution,
      test_source: request.test_source ?? null,
      test_filename: request.test_filename ?? "",
      assertions: request.assertions ?? [],
      bindings: request.bindings ?? null,
    });
    if (job.timeoutMs > 0 && Number.isFinite(job.timeoutMs)) {
      job.timer = setTimeout(() => this.#onTimeout(job), job.timeoutMs);
    }
  }

  /** Stop a job's timers (the time limit and the repeated interrupt). */
  #settle(job) {
    clearTimeout(job.timer);
    clearInterval(job.repeat);
  }

  #onReply(msg) {
    const job = this.#current;
    if (!job || msg.id !== job.seq) return; // a reply to a run already given up on
    this.#settle(job);
    if (job.interrupted && this.#interruptView) Atomics.store(this.#interruptView, 0, 0);
    this.#current = null;
    const id = job.request.id ?? job.seq;
    if (job.interrupted) {
      // The interrupt buffer stopped it (or it finished just then): the worker stays,
      // unless the interrupted runtime reports itself broken.
      job.resolve({ type: "timeout", id, timeoutMs: job.timeoutMs, restarted: Boolean(msg.fatal) });
    } else {
      job.resolve({ ...msg, id });
    }
    if (msg.fatal) this.#restart(`Python runtime failed: ${msg.message}`);
    else if (msg.memory_bytes > this.#recycleAboveBytes) {
      this.#restart(`worker memory grew to ${Math.round(msg.memory_bytes / 1024 ** 2)} MB`);
    }
    this.#pump();
  }

  #onTimeout(job) {
    if (this.#current !== job) return;
    if (this.#interruptView && !job.interrupted) {
      // Ask Python to raise KeyboardInterrupt; terminate only if that does not work.
      // Pyodide reads and clears the buffer in two steps, so a write that lands
      // between them is lost (seen about once in 25 tries): repeat it until Python
      // answers. A stray late write is cleared by the engine before the next run.
      job.interrupted = true;
      const view = this.#interruptView;
      const signal = () => Atomics.store(view, 0, 2); // 2 = SIGINT
      signal();
      job.repeat = setInterval(signal, INTERRUPT_REPEAT_MS);
      job.timer = setTimeout(() => this.#onTimeout(job), this.#interruptGraceMs);
      return;
    }
    this.#settle(job);
    this.#current = null;
    job.resolve({ type: "timeout", id: job.request.id ?? job.seq, timeoutMs: job.timeoutMs, restarted: true });
    this.#restart(`run timed out after ${job.timeoutMs} ms`);
    this.#pump();
  }
}
