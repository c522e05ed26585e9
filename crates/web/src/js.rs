//! The JavaScript side the page talks to: the bundled editor module (`www/editor/editor.js`, handed
//! over by `www/boot.js` as `window.benchEditor`) and the `window.__benchExplorer` hook that tests and
//! the benchmark read.

use std::cell::RefCell;

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The browser's `TextDecoder`, bound so that `decode` returns a JavaScript string: a large
    /// file's text is decoded a part at a time and handed to the editor without ever being copied
    /// into the wasm (`ui::source`).
    #[wasm_bindgen(js_name = TextDecoder)]
    pub type PartDecoder;
    #[wasm_bindgen(constructor, js_class = TextDecoder, catch)]
    pub fn new(label: &str, options: &JsValue) -> Result<PartDecoder, JsValue>;
    /// Decodes one part; `options` is `{stream: true}` for every part but the last. Throws (with
    /// `fatal: true`) on a malformed sequence.
    #[wasm_bindgen(method, catch, js_class = TextDecoder, js_name = decode)]
    pub fn decode_part(
        this: &PartDecoder,
        part: &js_sys::Uint8Array,
        options: &JsValue,
    ) -> Result<js_sys::JsString, JsValue>;
}

#[wasm_bindgen]
extern "C" {
    /// One CodeMirror editor (`Editor` in editor.js).
    pub type EditorHandle;

    #[wasm_bindgen(js_namespace = benchEditor, js_name = createEditor)]
    pub fn create_editor(parent: &web_sys::HtmlElement, opts: &JsValue) -> EditorHandle;

    #[wasm_bindgen(method, js_name = getDoc)]
    pub fn get_doc(this: &EditorHandle) -> String;
    /// The document's length in UTF-16 units (cheap: no copy of the text).
    #[wasm_bindgen(method, js_name = docLength)]
    pub fn doc_length(this: &EditorHandle) -> u32;
    #[wasm_bindgen(method, js_name = setDoc)]
    pub fn set_doc(this: &EditorHandle, text: &str, fresh: bool);
    /// [`EditorHandle::set_doc`] with a JavaScript string or an array of strings to be joined,
    /// never copied into the wasm (a file opened from disk: `ui::source`).
    #[wasm_bindgen(method, js_name = setDoc)]
    pub fn set_doc_js(this: &EditorHandle, text: &JsValue, fresh: bool);
    #[wasm_bindgen(method, js_name = setDiagnostics)]
    pub fn set_diagnostics(this: &EditorHandle, list: &JsValue);
    #[wasm_bindgen(method, js_name = setLinks)]
    pub fn set_links(this: &EditorHandle, ranges: &JsValue);
    #[wasm_bindgen(method, js_name = setWrongChecks)]
    pub fn set_wrong_checks(this: &EditorHandle, list: &JsValue);
    #[wasm_bindgen(method, js_name = setSettings)]
    pub fn set_settings(this: &EditorHandle, settings: &JsValue);
    #[wasm_bindgen(method)]
    pub fn reveal(this: &EditorHandle, pos: u32);
    #[wasm_bindgen(method)]
    pub fn jump(this: &EditorHandle, pos: u32);
    #[wasm_bindgen(method)]
    pub fn focus(this: &EditorHandle);
    #[wasm_bindgen(method)]
    pub fn destroy(this: &EditorHandle);

    #[wasm_bindgen(js_namespace = benchEditor)]
    pub fn compress(text: &str) -> String;
    #[wasm_bindgen(js_namespace = benchEditor, js_name = copyText)]
    pub fn copy_text(text: &str) -> js_sys::Promise;
}

thread_local! {
    static MAIN_EDITOR: RefCell<Option<EditorHandle>> = const { RefCell::new(None) };
}

pub fn set_main_editor(e: EditorHandle) {
    hook_set("editor", &e);
    MAIN_EDITOR.with(|m| *m.borrow_mut() = Some(e));
}

/// Run `f` with the main editor, if it exists yet.
pub fn with_editor<R>(f: impl FnOnce(&EditorHandle) -> R) -> Option<R> {
    MAIN_EDITOR.with(|m| m.borrow().as_ref().map(f))
}

/// An options object for `createEditor`.
pub struct EditorOptions {
    pub doc: String,
    pub read_only: bool,
    pub label: &'static str,
    pub testid: &'static str,
    pub on_change: Option<Box<dyn FnMut()>>,
    pub on_cursor: Option<Box<dyn FnMut(u32)>>,
}

impl EditorOptions {
    pub fn into_js(self) -> JsValue {
        let o = Object::new();
        set(&o, "doc", &JsValue::from_str(&self.doc));
        set(&o, "readOnly", &JsValue::from_bool(self.read_only));
        set(&o, "label", &JsValue::from_str(self.label));
        set(&o, "testid", &JsValue::from_str(self.testid));
        if let Some(f) = self.on_change {
            set(
                &o,
                "onChange",
                &Closure::<dyn FnMut()>::wrap(f).into_js_value(),
            );
        }
        if let Some(f) = self.on_cursor {
            set(
                &o,
                "onCursor",
                &Closure::<dyn FnMut(u32)>::wrap(f).into_js_value(),
            );
        }
        o.into()
    }
}

fn set(o: &Object, key: &str, value: &JsValue) {
    let _ = Reflect::set(o, &JsValue::from_str(key), value);
}

/// `window.__benchExplorer`, created by boot.js before the wasm starts (created here if not).
pub fn hook() -> Object {
    let w = web_sys::window().expect("a window");
    let key = JsValue::from_str("__benchExplorer");
    match Reflect::get(&w, &key) {
        Ok(v) if v.is_object() => v.unchecked_into(),
        _ => {
            let o = Object::new();
            let _ = Reflect::set(&w, &key, &o);
            o
        }
    }
}

pub fn hook_set(key: &str, value: &JsValue) {
    set(&hook(), key, value);
}

/// A value as a plain JavaScript object (maps as objects, `None` as `null`), as `JSON.parse` of its
/// JSON would give.
pub fn to_js(value: &impl serde::Serialize) -> JsValue {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::UNDEFINED)
}

/// Merge one of `logic::metrics`'s structs into `window.__benchExplorer` (`Object.assign`).
pub fn publish(metrics: &impl serde::Serialize) {
    if let Ok(o) = to_js(metrics).dyn_into::<Object>() {
        Object::assign(&hook(), &o);
    }
}

/// Show the page-level error banner that boot.js draws (outside the wasm, so it works after a trap).
pub fn report_fatal(message: &str) {
    let Some(w) = web_sys::window() else { return };
    if let Ok(f) = Reflect::get(&w, &JsValue::from_str("__benchExplorerFatal")) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_str(message));
        }
    }
}

pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

pub fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

pub fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// GET a file of the page's own folder (`rules.json`, `mutants.json`, `bench.json`) as text, without
/// blocking; `done` gets its text, or why there is none.
pub fn fetch_text(url: &str, done: impl FnOnce(Result<String, String>) + 'static) {
    use wasm_bindgen::JsCast;
    let refused = || Err("the browser refused the request".to_string());
    let Ok(xhr) = web_sys::XmlHttpRequest::new() else {
        return done(refused());
    };
    if xhr.open_with_async("GET", url, true).is_err() {
        return done(refused());
    }
    let x2 = xhr.clone();
    let onload = Closure::once(move || {
        done(match (x2.status(), x2.response_text()) {
            (Ok(200), Ok(Some(text))) => Ok(text),
            (Ok(0), _) => Err("no answer (offline, or the server is gone)".into()),
            (Ok(status), _) => Err(format!("HTTP {status}")),
            _ => Err("no answer".into()),
        })
    });
    xhr.set_onloadend(Some(onload.as_ref().unchecked_ref()));
    onload.forget();
    let _ = xhr.send();
}
