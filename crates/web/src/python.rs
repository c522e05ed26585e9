//! The page's handle on the Python worker: `PyRunner` from `www/py/client.mjs`, reached through
//! `window.benchPython` (defined in `www/boot.js`, which imports the client on demand). One runner
//! for the page; it starts in the background once the page is interactive, or at the first run.
//! Its start-up progress and restarts update its own [`PyStatus`] (which the Run tab's state embeds)
//! and the benchmark's hooks.

use std::cell::{Cell, RefCell};

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::js;
use crate::logic::run_results::{PyState, Reply, RunRequest};

#[wasm_bindgen]
extern "C" {
    /// `PyRunner` (www/py/client.mjs).
    #[derive(Clone)]
    pub type PyRunner;

    #[wasm_bindgen(method)]
    fn dispose(this: &PyRunner);

    #[wasm_bindgen(catch, js_namespace = benchPython, js_name = create)]
    fn create_runner(on_progress: &JsValue, done: &JsValue) -> Result<(), JsValue>;

    #[wasm_bindgen(catch, js_namespace = benchPython, js_name = run)]
    fn run_with(
        runner: &PyRunner,
        request: &JsValue,
        timeout_ms: f64,
        done: &JsValue,
    ) -> Result<(), JsValue>;
}

/// How long a start may take before the page says it is stuck.
/// Python's status: its start-up state and how long the first start took. Owned here; the Run tab's
/// state embeds it.
#[derive(Clone, Copy)]
pub struct PyStatus {
    pub state: RwSignal<PyState>,
    /// How long the first start-up took (ms), once Python is ready.
    pub load_ms: RwSignal<Option<f64>>,
}

impl PyStatus {
    pub fn new() -> PyStatus {
        PyStatus {
            state: RwSignal::new(PyState::Idle),
            load_ms: RwSignal::new(None),
        }
    }
}

const START_WATCHDOG: std::time::Duration = std::time::Duration::from_secs(90);

type Waiter = Box<dyn FnOnce(Result<&PyRunner, String>)>;

thread_local! {
    static RUNNER: RefCell<Option<PyRunner>> = const { RefCell::new(None) };
    static CREATING: Cell<bool> = const { Cell::new(false) };
    /// Runs asked for before the runner object exists (the client module loads asynchronously).
    static WAITING: RefCell<Vec<Waiter>> = const { RefCell::new(Vec::new()) };
    /// Bumped for every runner created: progress from a disposed one is ignored.
    static GENERATION: Cell<u32> = const { Cell::new(0) };
    static STARTED_AT: Cell<f64> = const { Cell::new(0.0) };
    static FIRST_READY: Cell<bool> = const { Cell::new(false) };
}

/// Start the worker if it is not started yet (idempotent).
pub fn start(py: PyStatus) {
    let exists = RUNNER.with(|r| r.borrow().is_some());
    if exists || CREATING.with(|c| c.get()) {
        return;
    }
    create(py);
}

fn create(py: PyStatus) {
    CREATING.with(|c| c.set(true));
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    let t0 = js::now_ms();
    if STARTED_AT.with(|s| s.get()) == 0.0 {
        STARTED_AT.with(|s| s.set(t0));
        js::hook_set("pyStartedMs", &JsValue::from_f64(t0));
    }
    py.state.set(PyState::Loading {
        step: 0,
        detail: "loading the worker".into(),
    });
    js::hook_set("pyState", &JsValue::from_str("loading"));

    let on_progress =
        Closure::<dyn FnMut(String, String)>::new(move |stage: String, detail: String| {
            if GENERATION.with(|g| g.get()) != generation {
                return;
            }
            let next = py.state.get_untracked().after(&stage, &detail);
            if stage == "ready" {
                on_ready(py, t0, &detail);
            }
            js::hook_set("pyState", &JsValue::from_str(next.id()));
            py.state.set(next);
        });
    let on_progress = on_progress.into_js_value();
    let done = Closure::once_into_js(move |runner: JsValue, error: Option<String>| {
        if GENERATION.with(|g| g.get()) != generation {
            // Superseded by a restart while it was being created: not needed any more.
            if let Some(r) = runner.dyn_ref::<js_sys::Object>() {
                r.unchecked_ref::<PyRunner>().dispose();
            }
            return;
        }
        CREATING.with(|c| c.set(false));
        match error {
            None if !runner.is_null() && !runner.is_undefined() => {
                let runner: PyRunner = runner.unchecked_into();
                RUNNER.with(|r| *r.borrow_mut() = Some(runner.clone()));
                let waiting = WAITING.with(|w| std::mem::take(&mut *w.borrow_mut()));
                for f in waiting {
                    f(Ok(&runner));
                }
            }
            other => {
                let message = other.unwrap_or_else(|| "no Python runner".into());
                fail_waiting(&message);
                py.state.set(PyState::Failed { message });
                js::hook_set("pyState", &JsValue::from_str("failed"));
            }
        }
    });
    // Pyodide does not always report a failed start (a wasm compile refused by a host's
    // Content-Security-Policy leaves it pending): say so after a while, and offer a retry. A late
    // "ready" still wins.
    set_timeout(
        move || {
            let stuck = GENERATION.with(|g| g.get()) == generation
                && matches!(py.state.get_untracked(), PyState::Loading { .. });
            if stuck {
                py.state.set(PyState::Failed {
                    message: format!(
                        "Python has not finished starting after {} s (the browser console may say why)",
                        START_WATCHDOG.as_secs()
                    ),
                });
                js::hook_set("pyState", &JsValue::from_str("failed"));
            }
        },
        START_WATCHDOG,
    );
    if let Err(e) = create_runner(&on_progress, &done) {
        CREATING.with(|c| c.set(false));
        let message = format!(
            "the page has no Python bridge ({})",
            e.as_string()
                .unwrap_or_else(|| "window.benchPython is missing".into())
        );
        fail_waiting(&message);
        py.state.set(PyState::Failed { message });
    }
}

fn fail_waiting(message: &str) {
    let waiting = WAITING.with(|w| std::mem::take(&mut *w.borrow_mut()));
    for f in waiting {
        f(Err(message.to_string()));
    }
}

fn on_ready(py: PyStatus, t0: f64, detail: &str) {
    let now = js::now_ms();
    py.load_ms.set(Some(now - t0));
    js::hook_set("pyLastReadyMs", &JsValue::from_f64(now));
    if !FIRST_READY.with(|f| f.replace(true)) {
        // Cold start: from navigation start, and from when the page asked for Python.
        js::hook_set("pyReadyMs", &JsValue::from_f64(now));
        js::hook_set("pyLoadMs", &JsValue::from_f64(now - t0));
        if let Ok(v) = js_sys::JSON::parse(detail) {
            js::hook_set("pyStartup", &v);
        }
    }
}

/// Run one request; `done` gets the reply (a rejected run becomes [`Reply::Failed`]).
pub fn run(
    py: PyStatus,
    request: &RunRequest,
    timeout_ms: u32,
    done: impl FnOnce(Reply) + 'static,
) {
    // The same plain object `JSON.parse` of the request's JSON would give.
    let request = js::to_js(request);
    let go = move |runner: Result<&PyRunner, String>| {
        let runner = match runner {
            Ok(r) => r,
            Err(message) => return done(Reply::Failed { message }),
        };
        // Exactly one of the two callbacks is called (boot.js); if the call itself throws, it is
        // reported below instead.
        let done = std::rc::Rc::new(RefCell::new(Some(done)));
        let d2 = done.clone();
        let cb = Closure::once_into_js(move |reply: Option<String>, error: Option<String>| {
            let Some(done) = d2.borrow_mut().take() else {
                return;
            };
            done(match (reply, error) {
                (Some(json), _) => Reply::parse(&json),
                (None, e) => Reply::Failed {
                    message: e.unwrap_or_else(|| "the run was rejected".into()),
                },
            })
        });
        if let Err(e) = run_with(runner, &request, timeout_ms as f64, &cb) {
            if let Some(done) = done.borrow_mut().take() {
                done(Reply::Failed {
                    message: format!("the run could not be started: {e:?}"),
                });
            }
        }
    };
    // A clone of the handle (the same JS object): no borrow is held while the run starts.
    let runner = RUNNER.with(|r| r.borrow().clone());
    if let Some(runner) = runner {
        go(Ok(&runner));
    } else {
        WAITING.with(|w| w.borrow_mut().push(Box::new(go)));
        start(py);
    }
}

/// Stop whatever runs: end the worker and start a fresh one. Pending runs end as `Failed`.
pub fn restart(py: PyStatus) {
    let old = RUNNER.with(|r| r.borrow_mut().take());
    // Progress from the old runner no longer counts; a creation under way is superseded.
    GENERATION.with(|g| g.set(g.get() + 1));
    CREATING.with(|c| c.set(false));
    fail_waiting("stopped");
    if let Some(old) = old {
        old.dispose();
    }
    create(py);
}
