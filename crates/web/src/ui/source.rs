//! The source pane: the problem picker, opening and dropping files, the editor, and its status bar.

use leptos::html;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::common::plural;
use super::permalink;
use crate::js::{self, EditorOptions};
use crate::logic::marks::wrong_marks;
use crate::state::{use_app, AppState, SourceOrigin};
use crate::{bench, engine};

/// Files larger than this are refused (the extractor handles them, but the page would crawl).
const MAX_FILE_BYTES: f64 = 16.0 * 1024.0 * 1024.0;
const SCRATCH: &str = "__scratch__";

const SCRATCH_TEMPLATE: &str = "\
# Paste, open or drop a pytest file, or write one here.
from solution import add


def test_add():
    total = add(2, 3)
    assert total == 5
";

#[component]
pub fn SourcePane() -> impl IntoView {
    let app = use_app();
    let rs = crate::run_control::use_run();
    let host = NodeRef::<html::Div>::new();

    // Create the editor once its element is in the document, then restore the start-up state.
    Effect::new(move |done: Option<bool>| {
        if done == Some(true) {
            return true;
        }
        let Some(el) = host.get() else { return false };
        let opts = EditorOptions {
            doc: String::new(),
            read_only: false,
            label: "Test file (Python)",
            testid: "editor-content",
            on_change: Some(Box::new(move || engine::request_edit(app))),
            // Only a new line is news: typing on one line re-ran what depends on it at every key.
            on_cursor: Some(Box::new(move |line| {
                if app.cursor_line.get_untracked() != Some(line) {
                    app.cursor_line.set(Some(line));
                }
            })),
        };
        let editor = js::create_editor(&el, &opts.into_js());
        js::set_main_editor(editor);
        crate::page::apply_editor_settings(&app.settings.get_untracked());
        permalink::restore_on_start(app, rs);
        true
    });

    // Under the write-up's stages, the wrong checks are marked in the editor too.
    Effect::new(move |_| {
        let marks = app.analysis.with(|a| {
            a.as_ref()
                .map(|a| wrong_marks(&a.extraction.assertions, &a.verdicts, &a.map))
                .unwrap_or_default()
        });
        js::hook_set("wrongMarks", &JsValue::from_f64(marks.len() as f64));
        js::with_editor(|e| e.set_wrong_checks(&js::to_js(&marks)));
    });

    view! {
        <section class="pane source-pane" aria-label="Source">
            <SourceBar/>
            <PausedNotice/>
            <div class="editor-host" node_ref=host data-testid="editor"></div>
            <StatusBar/>
        </section>
    }
}

#[component]
fn SourceBar() -> impl IntoView {
    let app = use_app();
    let file_input = NodeRef::<html::Input>::new();

    let on_pick = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        if value == SCRATCH {
            engine::load_text(
                app,
                "test_scratch.py",
                SCRATCH_TEMPLATE,
                None,
                SourceOrigin::File,
            );
        } else {
            engine::load_problem(app, &value);
        }
    };
    let on_file = move |_ev: leptos::ev::Event| {
        let Some(input) = file_input.get() else {
            return;
        };
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            read_file(app, file);
        }
        input.set_value("");
    };

    view! {
        <div class="source-bar">
            <label class="field">
                <span class="field-label">"Problem"</span>
                <select data-testid="problem-picker" aria-label="Bench problem" on:change=on_pick
                    prop:value=move || app.problem.get().map(str::to_string).unwrap_or_else(|| SCRATCH.to_string())>
                    <optgroup label=format!("The bench ({} problems)", bench::problems().len())>
                        {bench::problems()
                            .iter()
                            .map(|p| view! { <option value=p.slug>{format!("{} · {}", p.slug, bench::title(p.slug))}</option> })
                            .collect_view()}
                    </optgroup>
                    <optgroup label="Your own">
                        <option value=SCRATCH>"Scratch file (paste, open or drop)"</option>
                    </optgroup>
                </select>
            </label>
            <label class="field file-name">
                <span class="field-label">"File"</span>
                <input type="text" data-testid="file-name" spellcheck="false" aria-label="File name (gives the slug)"
                    prop:value=move || app.file_name.get()
                    on:change=move |ev| {
                        let v = event_target_value(&ev);
                        if !v.trim().is_empty() { app.file_name.set(v.trim().to_string()); }
                    }/>
            </label>
            <div class="source-actions">
                <Show when=move || app.modified.get() && app.problem.get().is_some()>
                    <span class="modified" data-testid="modified" title="You have edited the bench's file">"edited"</span>
                    <button class="btn small" data-testid="revert" on:click=move |_| {
                        if let Some(p) = app.problem.get_untracked() { engine::load_problem(app, p); }
                    }>"Revert"</button>
                </Show>
                <button class="btn small" data-testid="open-file" title="Open a test file from disk (or drop one on the page)"
                    on:click=move |_| { if let Some(i) = file_input.get() { i.click(); } }>
                    "Open…"
                </button>
                <input type="file" class="visually-hidden" tabindex="-1" aria-hidden="true" accept=".py,text/x-python,text/plain"
                    node_ref=file_input data-testid="file-input" on:change=on_file/>
            </div>
        </div>
    }
}

/// After a crash the text comes back with live extraction paused, so it cannot crash the page again.
#[component]
fn PausedNotice() -> impl IntoView {
    let app = use_app();
    view! {
        <Show when=move || app.paused.get()>
            <div class="notice warn" role="alert" data-testid="paused-notice">
                <span>"Live extraction is paused: this text crashed the extractor last time. Your file is back in the editor."</span>
                <button class="btn small" on:click=move |_| { app.paused.set(false); engine::request(app); }>"Extract anyway"</button>
            </div>
        </Show>
    }
}

#[component]
fn StatusBar() -> impl IntoView {
    let app = use_app();
    let counts = move || {
        app.analysis
            .with(|a| a.as_ref().map(|a| a.counts))
            .unwrap_or_default()
    };
    view! {
        <footer class="status-bar" aria-label="Editor status">
            <span data-testid="cursor-line">{move || app.cursor_line.get().map(|l| format!("Ln {l}")).unwrap_or_default()}</span>
            <span>{move || app.analysis.with(|a| a.as_ref().map(|a| format!("{} bytes", a.bytes))).unwrap_or_default()}</span>
            <span data-testid="extraction-ms">{move || app.analysis.with(|a| a.as_ref().map(|a| format!("extracted in {:.1} ms", a.ms))).unwrap_or_default()}</span>
            <span class="spacer"></span>
            {move || permalink::use_notices().not_kept.get().then(|| view! {
                <span class="not-kept" data-testid="session-not-kept"
                    title="This file is too large for the browser's storage: a reload will not bring it back (download it to keep it)">
                    "not kept on reload"
                </span>
            })}
            <span class="diag-counts" data-testid="diagnostics-count"
                data-errors=move || counts().errors.to_string()
                data-warnings=move || counts().warnings.to_string()
                data-infos=move || counts().infos.to_string()>
                <span class="dc dc-error" class:zero=move || counts().errors == 0>{move || plural(counts().errors, "error", "errors")}</span>
                <span class="dc dc-warning" class:zero=move || counts().warnings == 0>{move || plural(counts().warnings, "warning", "warnings")}</span>
                <span class="dc dc-info" class:zero=move || counts().infos == 0>{move || format!("{} dropped", counts().infos)}</span>
            </span>
        </footer>
    }
}

thread_local! {
    /// The newest file being read: a file opened while another is still being decoded replaces it.
    static OPENING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A file is decoded in parts of this many bytes (a few milliseconds each)...
const PART_BYTES: u32 = 1 << 20;
/// ...as many as fit in a task of about this many milliseconds: no task of the page runs long,
/// whatever the size of the file (issue 28).
const SLICE_MS: f64 = 8.0;

fn read_file(app: AppState, file: web_sys::File) {
    if file.size() > MAX_FILE_BYTES {
        engine::toast(
            app,
            format!(
                "{} is too large to open here ({:.1} MB; the limit is 16 MB)",
                file.name(),
                file.size() / 1048576.0
            ),
        );
        return;
    }
    let Ok(reader) = web_sys::FileReader::new() else {
        return;
    };
    let generation = OPENING.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    let name = file.name();
    let r2 = reader.clone();
    let onload = Closure::once_into_js(move || {
        let Some(buffer) = r2.result().ok() else {
            return;
        };
        let bytes = js_sys::Uint8Array::new(&buffer);
        // Read as Python reads it (PEP 263). A file read as UTF-8 (nearly all) is decoded by the
        // browser a part per task and never copied into the wasm; any other is decoded here, whole.
        if bench_explorer::encoding::reads_as_utf8(&first_two_lines(&bytes)) {
            decode_in_parts(app, name, bytes, generation, None);
        } else {
            match bench_explorer::encoding::decode(&bytes.to_vec(), &BrowserDecoder) {
                Ok(text) => opened(app, &name, &js_sys::JsString::from(text).into(), None),
                Err(e) => decode_in_parts(app, name, bytes, generation, Some(e)),
            }
        }
    });
    reader.set_onload(Some(onload.unchecked_ref()));
    let _ = reader.read_as_array_buffer(&file);
}

/// The file's first two lines whole (or the whole file), where an encoding declaration may be.
fn first_two_lines(bytes: &js_sys::Uint8Array) -> Vec<u8> {
    let len = bytes.length();
    let mut take = len.min(4096);
    loop {
        let head = bytes.subarray(0, take).to_vec();
        if take == len || head.iter().filter(|&&b| b == b'\n').count() >= 2 {
            return head;
        }
        take = len.min(take.saturating_mul(4));
    }
}

/// A file being decoded: the bytes, how far, the text so far.
struct Decoding {
    app: AppState,
    name: String,
    bytes: js_sys::Uint8Array,
    generation: u64,
    decoder: js::PartDecoder,
    at: u32,
    /// The text decoded so far, a string per part (joined by the editor: one 10 MB string made at
    /// once would be a long task).
    parts: js_sys::Array,
    refused: Option<bench_explorer::encoding::EncodingError>,
}

/// Decodes `bytes` as UTF-8 a part at a time, each slice of parts in a task of its own, then puts
/// the text in the editor. With `refused` (Python would not read the file), the text is shown with
/// each malformed sequence replaced, and the message says why. A strict decode that meets a
/// malformed sequence asks [`bench_explorer::encoding::decode`] for Python's words, and starts
/// again so.
fn decode_in_parts(
    app: AppState,
    name: String,
    bytes: js_sys::Uint8Array,
    generation: u64,
    refused: Option<bench_explorer::encoding::EncodingError>,
) {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &"fatal".into(), &refused.is_none().into());
    let Ok(decoder) = js::PartDecoder::new("utf-8", &options) else {
        return;
    };
    decode_slice(Decoding {
        app,
        name,
        bytes,
        generation,
        decoder,
        at: 0,
        parts: js_sys::Array::new(),
        refused,
    });
}

fn decode_slice(mut d: Decoding) {
    if OPENING.with(|g| g.get()) != d.generation {
        return;
    }
    let len = d.bytes.length();
    let stream = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&stream, &"stream".into(), &true.into());
    let t0 = js::now_ms();
    while d.at < len && js::now_ms() - t0 < SLICE_MS {
        let end = len.min(d.at.saturating_add(PART_BYTES));
        let options: JsValue = if end < len {
            stream.clone().into()
        } else {
            js_sys::Object::new().into()
        };
        match d
            .decoder
            .decode_part(&d.bytes.subarray(d.at, end), &options)
        {
            Ok(part) => {
                d.parts.push(&part);
            }
            Err(_) => {
                match bench_explorer::encoding::decode(&d.bytes.to_vec(), &BrowserDecoder) {
                    Ok(text) => opened(d.app, &d.name, &js_sys::JsString::from(text).into(), None),
                    Err(e) => set_timeout(
                        move || decode_in_parts(d.app, d.name, d.bytes, d.generation, Some(e)),
                        std::time::Duration::ZERO,
                    ),
                }
                return;
            }
        }
        d.at = end;
    }
    if d.at < len {
        set_timeout(move || decode_slice(d), std::time::Duration::ZERO);
    } else {
        opened(d.app, &d.name, &d.parts.into(), d.refused);
    }
}

/// The text of a file opened: into the editor, and a word of what happened.
fn opened(
    app: AppState,
    name: &str,
    text: &JsValue,
    refused: Option<bench_explorer::encoding::EncodingError>,
) {
    let problem = bench::problems()
        .iter()
        .find(|p| p.test_name == name)
        .map(|p| p.slug);
    engine::load_js_text(app, name, text, problem, SourceOrigin::File);
    engine::toast(
        app,
        match refused {
            None => format!("Opened {name}"),
            Some(e) => {
                format!("Opened {name}, which Python would not read ({e}); shown as UTF-8")
            }
        },
    );
}

/// The browser's own decoders for the encodings the library leaves to the caller (no encoding
/// tables in the page's wasm).
struct BrowserDecoder;

impl bench_explorer::encoding::Decoder for BrowserDecoder {
    fn decode(&self, label: &'static str, bytes: &[u8]) -> Option<String> {
        let options = web_sys::TextDecoderOptions::new();
        options.set_fatal(true);
        let decoder = web_sys::TextDecoder::new_with_label_and_options(label, &options).ok()?;
        decoder.decode_with_u8_array(bytes).ok()
    }
}

/// Dropping a file anywhere on the page opens it.
pub fn listen_for_drops(app: AppState) {
    let over = window_event_listener(leptos::ev::dragover, move |ev: web_sys::DragEvent| {
        let has_files = ev
            .data_transfer()
            .is_some_and(|d| d.types().includes(&JsValue::from_str("Files"), 0));
        if has_files {
            ev.prevent_default();
            if let Some(b) = document().body() {
                let _ = b.class_list().add_1("dragging");
            }
        }
    });
    let leave = window_event_listener(leptos::ev::dragleave, move |ev: web_sys::DragEvent| {
        if ev.related_target().is_none() {
            if let Some(b) = document().body() {
                let _ = b.class_list().remove_1("dragging");
            }
        }
    });
    let drop = window_event_listener(leptos::ev::drop, move |ev: web_sys::DragEvent| {
        if let Some(b) = document().body() {
            let _ = b.class_list().remove_1("dragging");
        }
        let Some(file) = ev
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        else {
            return;
        };
        ev.prevent_default();
        read_file(app, file);
    });
    std::mem::forget((over, leave, drop));
}
