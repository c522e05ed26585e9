// The page's JavaScript side: CodeMirror 6 editors, lz-string for permalinks, the clipboard.
// Bundled by esbuild (scripts/bundle.mjs) into one ES module; boot.js imports it and hands it to the
// wasm as `window.benchEditor`. Rust owns the state; this file only draws the editor and reports
// edits and cursor moves back through the callbacks it is given.
//
// Positions crossing this boundary are UTF-16 offsets (JavaScript's), converted from the extractor's
// UTF-8 byte offsets on the Rust side (crates/web/src/logic/offsets.rs).

import { EditorState, StateEffect, StateField, RangeSet, RangeSetBuilder, Compartment, Text } from "@codemirror/state";
import {
  EditorView,
  Decoration,
  keymap,
  lineNumbers,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  drawSelection,
  dropCursor,
  rectangularSelection,
  crosshairCursor,
  gutter,
  GutterMarker,
  hoverTooltip,
  showPanel,
  ViewPlugin,
  WidgetType,
} from "@codemirror/view";
import { history, defaultKeymap, historyKeymap } from "@codemirror/commands";
import {
  syntaxHighlighting,
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  foldGutter,
  foldKeymap,
  indentUnit,
  LanguageSupport,
} from "@codemirror/language";
// @codemirror/search is not in this bundle: editor-search.js (www/editor/search.js, bundled apart by
// scripts/bundle.mjs) is loaded the first time a search key is pressed or text is selected
// (`loadSearch`). It imports CodeMirror's state and view from this module (the re-exports below),
// so both files share one instance of them.
import { lintGutter, lintKeymap, setDiagnostics, forEachDiagnostic } from "@codemirror/lint";
// The Python language without lang-python's completion sources (the editor offers no completion):
// `python()` would bring @codemirror/autocomplete into the bundle.
import { pythonLanguage } from "@codemirror/lang-python";
// A dependency of @codemirror/language (always installed with it): the highlight tags.
import { tags as t } from "@lezer/highlight";
// Only the compressor: the page reads links with its own bounded decompressor
// (crates/web/src/logic/lzstring.rs), since lz-string's can expand a small fragment quadratically.
import { compressToEncodedURIComponent } from "lz-string";

// Colours come from CSS variables (www/style.css), so one theme serves light and dark mode.
const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.operatorKeyword, t.definitionKeyword, t.moduleKeyword], color: "var(--syn-keyword)" },
  { tag: [t.string, t.special(t.string)], color: "var(--syn-string)" },
  { tag: [t.number, t.bool, t.null], color: "var(--syn-number)" },
  { tag: [t.comment, t.lineComment, t.blockComment], color: "var(--syn-comment)", fontStyle: "italic" },
  { tag: [t.function(t.variableName), t.function(t.definition(t.variableName))], color: "var(--syn-function)" },
  { tag: [t.definition(t.variableName), t.definition(t.propertyName)], color: "var(--syn-definition)" },
  { tag: [t.className, t.definition(t.className)], color: "var(--syn-class)" },
  { tag: [t.propertyName], color: "var(--syn-property)" },
  { tag: [t.meta, t.annotation], color: "var(--syn-meta)" },
  { tag: [t.self, t.standard(t.variableName)], color: "var(--syn-builtin)" },
  { tag: [t.invalid], color: "var(--syn-invalid)" },
]);

const theme = EditorView.theme({
  "&": { height: "100%", backgroundColor: "var(--editor-bg)", color: "var(--fg)", fontFamily: "var(--sans)" },
  "&.cm-focused": { outline: "none" },
  ".cm-scroller": { fontFamily: "var(--mono)", lineHeight: "1.55" },
  ".cm-content": { caretColor: "var(--accent)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--accent)" },
  ".cm-gutters": { backgroundColor: "var(--editor-gutter)", color: "var(--fg-muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLine": { backgroundColor: "var(--editor-active-line)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--editor-active-line)", color: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection":
    { backgroundColor: "var(--editor-selection) !important" },
  ".cm-selectionMatch": { backgroundColor: "var(--editor-match)" },
  "&.cm-focused .cm-matchingBracket": { backgroundColor: "var(--editor-match)", outline: "1px solid var(--border-strong)" },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)" },
  ".cm-panels.cm-panels-bottom": { borderTop: "1px solid var(--border)" },
  ".cm-panels.cm-panels-top": { borderBottom: "1px solid var(--border)" },
  ".cm-search-note": { padding: "2px 6px" },
  ".cm-textfield": { backgroundColor: "var(--bg)", color: "var(--fg)", border: "1px solid var(--border-strong)", borderRadius: "4px" },
  ".cm-button": { backgroundImage: "none", backgroundColor: "var(--button-bg)", color: "var(--fg)", border: "1px solid var(--border-strong)", borderRadius: "4px" },
  ".cm-tooltip": { backgroundColor: "var(--panel)", color: "var(--fg)", border: "1px solid var(--border-strong)" },
  ".cm-tooltip-lint": { maxWidth: "44em" },
  ".cm-searchMatch": { backgroundColor: "var(--editor-search)", outline: "1px solid var(--border-strong)" },
  ".cm-searchMatch.cm-searchMatch-selected": { backgroundColor: "var(--editor-search-selected)" },
  ".cm-foldPlaceholder": { backgroundColor: "var(--button-bg)", border: "1px solid var(--border)", color: "var(--fg-muted)" },
  // Two-way linking: the assertion under the pointer (or picked) and the lines it was built from.
  ".cm-link-assert": { backgroundColor: "var(--hl-assert)" },
  ".cm-link-origin": { backgroundColor: "var(--hl-origin)" },
  ".cm-link-blocker": { backgroundColor: "var(--hl-blocker)" },
  ".cm-link-gutter": { width: "4px", padding: "0" },
  ".cm-link-gutter .cm-gutterElement": { padding: "0" },
  ".cm-link-mark": { display: "block", width: "4px", height: "100%" },
  ".cm-link-mark-assert": { backgroundColor: "var(--accent)" },
  ".cm-link-mark-origin": { backgroundColor: "var(--origin)" },
  ".cm-link-mark-blocker": { backgroundColor: "var(--danger)" },
  // Code spans in messages (`x` in a diagnostic's Markdown).
  // A line of a file that is not text, escaped.
  ".cm-escaped": { color: "var(--fg-muted)" },
  ".cm-md-code": { fontFamily: "var(--mono)", fontSize: "0.95em", backgroundColor: "var(--panel-2)", padding: "0 3px", borderRadius: "3px" },
  // Wrong checks of an earlier stage: a squiggle under the assert and a mark in their own gutter.
  ".cm-wrong-check": {
    textDecoration: "underline wavy var(--danger)",
    textDecorationSkipInk: "none",
    textUnderlineOffset: "3px",
  },
  ".cm-wrong-gutter": { width: "14px" },
  ".cm-wrong-gutter .cm-gutterElement": { padding: "0", textAlign: "center" },
  ".cm-wrong-mark": { color: "var(--danger)", fontWeight: "700", cursor: "help" },
  ".cm-wrong-tip": { padding: "4px 8px", maxWidth: "44em", fontFamily: "var(--sans)", fontSize: "12.5px" },
  ".cm-wrong-tip strong": { color: "var(--danger)" },
});

// ---- Markdown code spans as code, never as markup ----------------------------------------------

// Text with `code` spans → a span of text nodes and <code> elements (no HTML is ever parsed).
export function renderCodeSpans(text) {
  const out = document.createElement("span");
  const parts = String(text).split("`");
  // An unmatched backtick stays a backtick.
  if (parts.length % 2 === 0) {
    out.textContent = text;
    return out;
  }
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      const code = document.createElement("code");
      code.className = "cm-md-code";
      code.textContent = part;
      out.appendChild(code);
    } else if (part) {
      out.appendChild(document.createTextNode(part));
    }
  });
  return out;
}

// ---- wrong checks (an earlier stage's kept assertion the faithful extractor would not keep) -----

const setWrong = StateEffect.define();

class WrongMarker extends GutterMarker {
  constructor(message) {
    super();
    this.message = message;
  }
  eq(other) {
    return other.message === this.message;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = "cm-wrong-mark";
    span.textContent = "✗";
    span.title = this.message.replaceAll("`", "");
    span.setAttribute("data-testid", "wrong-check-gutter");
    return span;
  }
}

// [{from, to, message}] → a squiggle per range, a gutter mark per line, and the ranges for the tooltip.
function buildWrong(doc, list) {
  const items = list
    .map((w) => {
      const from = Math.max(0, Math.min(w.from, doc.length));
      return { from, to: Math.max(from, Math.min(w.to, doc.length)), message: w.message };
    })
    .filter((w) => w.to > w.from)
    .sort((a, b) => a.from - b.from);
  const deco = new RangeSetBuilder();
  const gut = new RangeSetBuilder();
  let lastLine = -1;
  for (const w of items) {
    deco.add(w.from, w.to, Decoration.mark({ class: "cm-wrong-check", attributes: { "data-testid": "wrong-check-mark" } }));
  }
  for (const w of items) {
    const line = doc.lineAt(w.from);
    if (line.number === lastLine) continue;
    lastLine = line.number;
    gut.add(line.from, line.from, new WrongMarker(w.message));
  }
  return { deco: deco.finish(), gutter: gut.finish(), items };
}

const wrongField = StateField.define({
  create: () => ({ deco: Decoration.none, gutter: RangeSet.empty, items: [] }),
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setWrong)) return buildWrong(tr.state.doc, e.value);
    if (tr.docChanged) {
      return {
        deco: value.deco.map(tr.changes),
        gutter: value.gutter.map(tr.changes),
        items: value.items.map((w) => ({ ...w, from: tr.changes.mapPos(w.from), to: tr.changes.mapPos(w.to) })),
      };
    }
    return value;
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.deco),
});

const wrongGutter = gutter({
  class: "cm-wrong-gutter",
  markers: (view) => view.state.field(wrongField).gutter,
});

const wrongTooltip = hoverTooltip((view, pos) => {
  const hits = view.state.field(wrongField).items.filter((w) => pos >= w.from && pos <= w.to);
  if (!hits.length) return null;
  return {
    pos: hits[0].from,
    end: hits[0].to,
    above: true,
    create() {
      const dom = document.createElement("div");
      dom.className = "cm-wrong-tip";
      dom.setAttribute("data-testid", "wrong-check-tooltip");
      for (const h of hits) {
        const p = document.createElement("div");
        const strong = document.createElement("strong");
        strong.textContent = "Wrong check: ";
        p.append(strong, renderCodeSpans(h.message));
        dom.appendChild(p);
      }
      return { dom };
    },
  };
});

// ---- settings: line wrapping and font size (compartments, changed without a new state) ----------

const wrapping = new Compartment();

// ---- large documents and files that are not text: the costly extensions off -------------------

// Above this many characters (UTF-16), or with a line over LONG_LINE, the editor drops Python parsing and highlighting, bracket
// matching, folding and selection-match highlighting: on a file of megabytes their background
// parse and per-update scans are what blocks the page (issue 11: a 10 MB file, 50,000 asserts),
// and nobody reads such a file by its colours. The bench's files are a few KB.
export const LARGE_DOC = 256 * 1024;

// A file that is not text (the rule of crates/web/src/logic/text_kind.rs, on its first 64 K
// characters: a NUL, replacement characters for invalid UTF-8, mostly control characters) is shown
// escaped, one line of ASCII per line: laid out raw, its random scripts (font fallback, bidi) and
// control characters took the browser half a second per screen. The page says it is not text.
function looksBinary(doc) {
  const head = doc.sliceString(0, Math.min(doc.length, 65536));
  if (head.includes("\0")) return true;
  let replaced = 0;
  let control = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (c === 0xfffd) replaced++;
    else if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13 && c !== 12) || (c >= 0x7f && c < 0xa0)) control++;
  }
  return replaced > 64 || (replaced >= 4 && replaced * 100 > head.length) || control * 20 > head.length;
}

const escapeChar = (ch) => {
  const c = ch.codePointAt(0);
  if (c >= 0x20 && c < 0x7f) return ch;
  if (c === 9) return "\\t";
  if (c < 0x100) return "\\x" + c.toString(16).padStart(2, "0");
  if (c < 0x10000) return "\\u" + c.toString(16).padStart(4, "0");
  return "\\U" + c.toString(16).padStart(8, "0");
};
const ESCAPED_MAX = 4000;

class EscapedLine extends WidgetType {
  constructor(text) {
    super();
    this.text = text;
  }
  eq(other) {
    return other.text === this.text;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = "cm-escaped";
    span.textContent = this.text;
    return span;
  }
}

// The visible lines that hold anything but printable ASCII, replaced by their escaped text.
function escapedDecorations(view) {
  const b = new RangeSetBuilder();
  for (const { from, to } of view.visibleRanges) {
    for (let pos = from; pos <= to; ) {
      const line = view.state.doc.lineAt(pos);
      const text = line.text;
      if (/[^\x20-\x7e]/.test(text)) {
        let out = "";
        for (const ch of text) {
          out += escapeChar(ch);
          if (out.length > ESCAPED_MAX) {
            out = out.slice(0, ESCAPED_MAX) + ` … (${text.length} characters)`;
            break;
          }
        }
        b.add(line.from, line.to, Decoration.replace({ widget: new EscapedLine(out) }));
      }
      pos = line.to + 1;
    }
  }
  return b.finish();
}

const escapedView = ViewPlugin.fromClass(
  class {
    constructor(view) {
      this.decorations = escapedDecorations(view);
    }
    update(u) {
      if (u.docChanged || u.viewportChanged) this.decorations = escapedDecorations(u.view);
    }
  },
  { decorations: (v) => v.decorations },
);

const mode = new Compartment();
const costlyExtensions = () => [
  new LanguageSupport(pythonLanguage),
  syntaxHighlighting(highlight),
  bracketMatching(),
  searchCode ? searchCode.highlightSelectionMatches() : [],
  foldGutter(),
  indentOnInput(),
];
// A line this long (a minified or generated file, 50,000-deep brackets) gets the same treatment:
// Python parsing and bracket matching of one such line took the page's thread for over 50 ms.
export const LONG_LINE = 10_000;
function hasLongLine(doc) {
  if (doc.length <= LONG_LINE) return false;
  for (const it = doc.iterLines(); !it.next().done; ) if (it.value.length > LONG_LINE) return true;
  return false;
}
const modeOf = (doc) => (looksBinary(doc) ? "binary" : doc.length > LARGE_DOC || hasLongLine(doc) ? "large" : "normal");
const modeExtensions = (m) => (m === "binary" ? [escapedView] : m === "large" ? [] : costlyExtensions());
const modeField = StateField.define({
  create: (state) => modeOf(state.doc),
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setMode)) return e.value;
    return value;
  },
});
const setMode = StateEffect.define();
// A change that may change the mode (a paste, a new document, crossing the size limit) switches
// the extensions in the same transaction; typing a character does not rescan the document.
const modeSwitch = EditorState.transactionExtender.of((tr) => {
  if (!tr.docChanged) return null;
  let inserted = 0;
  tr.changes.iterChanges((fa, ta, fb, tb) => (inserted += tb - fb + (ta - fa)));
  const was = tr.startState.field(modeField);
  const sizeClass = (n) => n > LARGE_DOC;
  if (inserted < 1024 && was !== "binary" && sizeClass(tr.startState.doc.length) === sizeClass(tr.newDoc.length)) return null;
  const now = modeOf(tr.newDoc);
  return now === was ? null : { effects: [setMode.of(now), mode.reconfigure(modeExtensions(now))] };
});
const modeExtension = (doc) => [modeField, mode.of(modeExtensions(modeOf(doc))), modeSwitch];
export const editorMode = (view) => view.state.field(modeField);
const fontSize = new Compartment();
const fontTheme = (px) => EditorView.theme({ ".cm-scroller": { fontSize: `${px}px` } });
const globalSettings = { wrap: false, fontSize: 13 };

// ---- line highlights driven from Rust ---------------------------------------------------------

const setLinks = StateEffect.define();

class LinkMarker extends GutterMarker {
  constructor(kind) {
    super();
    this.kind = kind;
  }
  eq(other) {
    return other.kind === this.kind;
  }
  toDOM() {
    const span = document.createElement("span");
    span.className = `cm-link-mark cm-link-mark-${this.kind}`;
    return span;
  }
}
const markers = { assert: new LinkMarker("assert"), origin: new LinkMarker("origin"), blocker: new LinkMarker("blocker") };

// [{from, to, kind}] (kind: "assert" | "origin" | "blocker") → one decoration per covered line; when
// two ranges cover a line the first one given wins, so Rust lists the assertion itself first.
function buildLinks(doc, ranges) {
  const byLine = new Map();
  for (const r of ranges) {
    const from = Math.max(0, Math.min(r.from, doc.length));
    const to = Math.max(from, Math.min(r.to, doc.length));
    const first = doc.lineAt(from).number;
    const last = doc.lineAt(to).number;
    for (let n = first; n <= last; n++) if (!byLine.has(n)) byLine.set(n, r.kind);
  }
  const lines = [...byLine.keys()].sort((a, b) => a - b);
  const deco = new RangeSetBuilder();
  const gut = new RangeSetBuilder();
  for (const n of lines) {
    const line = doc.line(n);
    const kind = byLine.get(n);
    deco.add(line.from, line.from, Decoration.line({ class: `cm-link-${kind}` }));
    gut.add(line.from, line.from, markers[kind] ?? markers.origin);
  }
  return { deco: deco.finish(), gutter: gut.finish() };
}

const linkField = StateField.define({
  create: () => ({ deco: Decoration.none, gutter: RangeSet.empty }),
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setLinks)) return buildLinks(tr.state.doc, e.value);
    if (tr.docChanged) return { deco: value.deco.map(tr.changes), gutter: value.gutter.map(tr.changes) };
    return value;
  },
  provide: (f) => EditorView.decorations.from(f, (v) => v.deco),
});

const linkGutter = gutter({
  class: "cm-link-gutter",
  markers: (view) => view.state.field(linkField).gutter,
});

// ---- search, loaded on first use ------------------------------------------------------------

// What editor-search.js needs from CodeMirror's state and view: the instances of this bundle.
export { EditorView, Decoration, ViewPlugin, showPanel, runScopeHandlers, getPanel, getDialog, showDialog } from "@codemirror/view";
export { codePointAt, fromCodePoint, codePointSize, EditorSelection, Facet, combineConfig, CharCategory, StateEffect, StateField, RangeSetBuilder, Prec, EditorState, findClusterBreak } from "@codemirror/state";

// The module once loaded (search, its keymap, highlightSelectionMatches and the commands); the
// pending or finished import; every live view (to give each the search once it is here).
let searchCode = null;
let searchLoad = null;
const views = new Set();
const searchSlot = new Compartment();
const searchExtensions = () => [searchCode.search({ top: true }), keymap.of(searchCode.searchKeymap)];

function loadSearch() {
  searchLoad ??= import("./editor-search.js").then(
    (m) => {
      searchCode = m;
      for (const v of views)
        v.dispatch({ effects: [searchSlot.reconfigure(searchExtensions()), mode.reconfigure(modeExtensions(v.state.field(modeField)))] });
      return m;
    },
    (e) => {
      searchLoad = null;
      throw e;
    },
  );
  return searchLoad;
}

// While it loads, a line at the top of the editor says so; if it cannot be had, why, with a
// button that tries again.
const setSearchNote = StateEffect.define();
const searchNote = StateField.define({
  create: () => null,
  update(value, tr) {
    for (const e of tr.effects) if (e.is(setSearchNote)) value = e.value;
    return value;
  },
  provide: (f) => showPanel.from(f, (note) => (note ? () => searchNotePanel(note) : null)),
});
function searchNotePanel(note) {
  const dom = document.createElement("div");
  dom.className = "cm-search-note";
  dom.setAttribute("role", note.error ? "alert" : "status");
  dom.textContent = note.error ? `Search could not be loaded (${note.error}). ` : "Loading search…";
  if (note.error) {
    const retry = document.createElement("button");
    retry.type = "button";
    retry.textContent = "Try again";
    retry.onclick = note.retry;
    dom.append(retry);
  }
  return { dom, top: true };
}

// A search command before the module is here: load it, then run the command on the view.
function runSearch(view, name) {
  view.dispatch({ effects: setSearchNote.of({}) });
  loadSearch().then(
    (m) => {
      if (!views.has(view)) return;
      view.dispatch({ effects: setSearchNote.of(null) });
      m[name](view);
    },
    (e) => {
      if (!views.has(view)) return;
      view.dispatch({ effects: setSearchNote.of({ error: String(e?.message ?? e), retry: () => runSearch(view, name) }) });
    },
  );
  return true;
}
const lazy = (name) => (view) => runSearch(view, name);
// searchKeymap's keys (but Escape, which only closes an open panel).
const lazySearchKeys = [
  { key: "Mod-f", run: lazy("openSearchPanel"), scope: "editor search-panel" },
  { key: "F3", run: lazy("findNext"), shift: lazy("findPrevious"), scope: "editor search-panel", preventDefault: true },
  { key: "Mod-g", run: lazy("findNext"), shift: lazy("findPrevious"), scope: "editor search-panel", preventDefault: true },
  { key: "Mod-Shift-l", run: lazy("selectSelectionMatches") },
  { key: "Mod-Alt-g", run: lazy("gotoLine") },
  { key: "Mod-d", run: lazy("selectNextOccurrence"), preventDefault: true },
];
// A first selection loads it too (highlightSelectionMatches); one try: a failure shows when a
// search key is pressed.
let searchTried = false;
const lazySearch = [
  keymap.of(lazySearchKeys),
  EditorView.updateListener.of((u) => {
    if (searchTried || !u.selectionSet || u.state.selection.ranges.every((r) => r.empty)) return;
    searchTried = true;
    loadSearch().catch(() => {});
  }),
];
const trackView = ViewPlugin.define((view) => {
  views.add(view);
  return { destroy: () => views.delete(view) };
});

// ---- editors --------------------------------------------------------------------------------

// The newest large paste (`extensions`, paste): a newer one replaces one still being split.
let pasteGeneration = 0;

function extensions(opts, doc = Text.empty) {
  const exts = [
    lineNumbers(),
    highlightSpecialChars(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentUnit.of("    "),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightActiveLineGutter(),
    modeExtension(doc),
    theme,
    linkField,
    linkGutter,
    wrongField,
    wrongGutter,
    wrongTooltip,
    wrapping.of(globalSettings.wrap ? EditorView.lineWrapping : []),
    fontSize.of(fontTheme(globalSettings.fontSize)),
    keymap.of([...defaultKeymap, ...historyKeymap, ...foldKeymap, ...lintKeymap]),
    // After the keymap above, as searchKeymap came after defaultKeymap in it (both bind Escape).
    searchSlot.of(searchCode ? searchExtensions() : lazySearch),
    searchNote,
    trackView,
    EditorView.contentAttributes.of({
      "aria-label": opts.label ?? "Python source",
      ...(opts.testid ? { "data-testid": opts.testid } : {}),
    }),
  ];
  if (opts.readOnly) {
    exts.push(EditorState.readOnly.of(true));
  } else {
    exts.push(history(), lintGutter());
  }
  if (opts.onChange || opts.onCursor) {
    let lastLine = 0;
    exts.push(
      EditorView.updateListener.of((u) => {
        // (onChange: reported before the update, by Editor.dispatch.)
        if ((u.selectionSet || u.docChanged || u.focusChanged) && opts.onCursor) {
          const line = u.state.doc.lineAt(u.state.selection.main.head).number;
          if (line !== lastLine || u.focusChanged) {
            lastLine = line;
            opts.onCursor(line);
          }
        }
      }),
    );
  }
  // A dropped file replaces the document (the page handles it); CodeMirror would insert its text.
  exts.push(
    EditorView.domEventHandlers({
      drop: (event) => (event.dataTransfer && event.dataTransfer.files && event.dataTransfer.files.length > 0 ? true : false),
      // A large paste is split into lines a slice at a time, then inserted as one edit (CodeMirror
      // would split it in the paste's own task: 10 MB was a long task).
      paste: (event, view) => {
        const text = event.clipboardData ? event.clipboardData.getData("text/plain") : "";
        if (text.length <= SLICE_CHARS || view.state.readOnly) return false;
        event.preventDefault();
        const generation = (pasteGeneration += 1);
        buildText([text], () => generation === pasteGeneration, (doc) =>
          view.dispatch(view.state.replaceSelection(doc), { userEvent: "input.paste", scrollIntoView: true }),
        );
        return true;
      },
    }),
  );
  return exts;
}

// The editor lives in a shadow root: there CodeMirror's style-mod uses a constructed stylesheet
// (adoptedStyleSheets) instead of an inline <style> element, which the page's Content-Security-Policy
// (style-src 'self', no 'unsafe-inline') would block. CSS variables still inherit from the page.
function shadowMount(host) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  const mount = document.createElement("div");
  // CSSOM, not a style attribute: allowed under style-src 'self'. The host is position: relative.
  Object.assign(mount.style, { position: "absolute", top: "0", left: "0", right: "0", bottom: "0" });
  root.replaceChildren(mount);
  return mount;
}

// Large texts cross into and out of the editor in slices of this many characters, for about
// SLICE_MS milliseconds per task.
const SLICE_CHARS = 512 * 1024;
const SLICE_MS = 8;
const LINE_BREAKS = /\r\n?|\n/;

// Builds a document from `parts` (strings to be joined), a slice of about SLICE_MS at a time (for
// 10 MB, one split was a long task; joining the parts here spares a 10 MB string flattened at
// once), then calls `done(doc)`: at once for a small text, else in a later task, unless `live()`
// has turned false meanwhile (a newer text replaced this one).
function buildText(parts, live, done) {
  if (parts.length === 1 && parts[0].length <= SLICE_CHARS) return done(Text.of(parts[0].split(LINE_BREAKS)));
  let doc = null;
  let part = 0;
  let at = 0;
  // The end of the previous part after its last line feed, which goes with the next part (so that
  // a \r\n pair is never split).
  let carry = "";
  const step = () => {
    if (!live()) return;
    const t0 = performance.now();
    while (part < parts.length && performance.now() - t0 < SLICE_MS) {
      const s = parts[part];
      const last = part === parts.length - 1;
      let end = Math.min(s.length, at + SLICE_CHARS);
      // Cut after a line feed, so that no line (nor a \r\n pair) is split.
      if (end < s.length) {
        const nl = s.indexOf("\n", end);
        end = nl < 0 ? s.length : nl + 1;
      }
      let piece;
      if (end === s.length && !last) {
        const nl = s.lastIndexOf("\n");
        const cut = nl < at ? at : nl + 1;
        piece = carry + s.slice(at, cut);
        carry = s.slice(cut);
      } else {
        piece = carry + s.slice(at, end);
        carry = "";
      }
      if (piece.length) {
        const lines = Text.of(piece.split(LINE_BREAKS));
        doc = doc ? doc.append(lines) : lines;
      }
      at = end;
      if (at >= s.length) {
        part++;
        at = 0;
      }
    }
    if (part < parts.length) setTimeout(step, 0);
    else done(doc || Text.empty);
  };
  step();
}

function sameDiagnostics(state, diags) {
  let i = 0;
  let same = true;
  forEachDiagnostic(state, (d, from, to) => {
    const n = diags[i++];
    if (!same || !n || n.from !== from || n.to !== to || n.severity !== d.severity || n.message !== d.message || n.source !== d.source) same = false;
  });
  return same && i === diags.length;
}

class Editor {
  constructor(parent, opts) {
    this.opts = opts;
    // The document an edit is making, while the view is not yet updated to it (see dispatch).
    this.pending = null;
    this.view = new EditorView({
      parent: shadowMount(parent),
      state: EditorState.create({ doc: opts.doc ?? "", extensions: extensions(opts, Text.of((opts.doc ?? "").split(/\r\n?|\n/))) }),
      dispatchTransactions: (trs, view) => this.dispatch(trs, view),
    });
  }
  // An edit is reported (onChange) before the view updates to it, with getDoc and readDoc giving
  // the new text: the page asks for its extraction at once, and the worker extracts while the view
  // updates its DOM, selection and highlighting (several milliseconds of a keystroke in a large
  // file, which came before the request).
  // The edit is applied even if reporting it fails (the error is reported after it, as an error
  // of its own): no keystroke is lost to a failing listener.
  dispatch(trs, view) {
    let failed = null;
    if (this.opts.onChange && trs.some((tr) => tr.docChanged)) {
      this.pending = trs[trs.length - 1].state.doc;
      try {
        this.opts.onChange();
      } catch (e) {
        failed = e;
      } finally {
        this.pending = null;
      }
    }
    view.update(trs);
    if (failed) {
      queueMicrotask(() => {
        throw failed;
      });
    }
  }
  doc() {
    return this.pending ?? this.view.state.doc;
  }
  getDoc() {
    return this.doc().toString();
  }
  // The text for the extraction worker, from the document as it is now: part(string) for each slice
  // of a large document, a task each (one toString of 10 MB, and posting it, were long tasks), then
  // done(). A small document is one part. Stops early if part() returns false.
  readDoc(part, done) {
    const doc = this.doc();
    let at = 0;
    const step = () => {
      while (at < doc.length || at === 0) {
        const end = Math.min(doc.length, at + SLICE_CHARS);
        if (part(doc.sliceString(at, end)) === false) return;
        at = Math.max(end, 1);
        if (at < doc.length) return setTimeout(step, 0);
      }
      done();
    };
    step();
  }
  docLength() {
    return this.doc().length;
  }
  // "normal", "large" (over LARGE_DOC: no parsing, highlighting, folding) or "binary" (shown
  // escaped): see above.
  mode() {
    return editorMode(this.view);
  }
  // Replace the document. `fresh`: start a new undo history (another file); otherwise one undoable edit.
  // `text` is a string, or an array of strings to be joined (a file decoded a part at a time). A
  // large text is split into lines a slice at a time (`buildText`) and then set at once; a newer
  // setDoc drops a pending one.
  setDoc(text, fresh) {
    const generation = (this.docGeneration = (this.docGeneration || 0) + 1);
    buildText(typeof text === "string" ? [text] : text, () => generation === this.docGeneration, (doc) => this.applyDoc(doc, fresh));
  }
  applyDoc(doc, fresh) {
    if (fresh) {
      this.view.setState(EditorState.create({ doc, extensions: extensions(this.opts, doc) }));
      if (this.opts.onChange) this.opts.onChange();
    } else {
      this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: doc } });
    }
  }
  // [{from, to, severity: "error"|"warning"|"info", message, source}] in UTF-16 offsets.
  setDiagnostics(list) {
    const len = this.view.state.doc.length;
    const diags = list.map((d) => {
      let from = Math.max(0, Math.min(d.from, len));
      let to = Math.max(from, Math.min(d.to, len));
      const message = d.message;
      return { from, to, severity: d.severity, message, source: d.source, renderMessage: () => renderCodeSpans(message) };
    });
    // The same diagnostics as the editor already shows (CodeMirror moves them with each edit): no
    // transaction (it would make CodeMirror read the DOM selection, a layout, at every keystroke).
    if (sameDiagnostics(this.view.state, diags)) return;
    this.view.dispatch(setDiagnostics(this.view.state, diags));
  }
  // Nothing to clear is not dispatched: a transaction makes CodeMirror read the DOM selection,
  // which forces a layout of everything the page has just changed (100 ms after a large result).
  setLinks(ranges) {
    if (!ranges.length && this.view.state.field(linkField).deco.size === 0) return;
    this.view.dispatch({ effects: setLinks.of(ranges) });
  }
  // [{from, to, message}] in UTF-16 offsets: the wrong checks of an earlier stage.
  setWrongChecks(list) {
    const items = list || [];
    const current = this.view.state.field(wrongField).items;
    if (!items.length && current.length === 0) return;
    // The marks it already shows (moved with each edit): no transaction, as for the diagnostics.
    const next = buildWrong(this.view.state.doc, items).items;
    if (next.length === current.length && next.every((w, i) => w.from === current[i].from && w.to === current[i].to && w.message === current[i].message)) return;
    this.view.dispatch({ effects: setWrong.of(items) });
  }
  // {wrap: bool, fontSize: px}: applied now, and to every editor created or reset later.
  setSettings(s) {
    if (typeof s.wrap === "boolean") globalSettings.wrap = s.wrap;
    if (Number.isFinite(s.fontSize)) globalSettings.fontSize = Math.max(9, Math.min(28, s.fontSize));
    this.view.dispatch({
      effects: [
        wrapping.reconfigure(globalSettings.wrap ? EditorView.lineWrapping : []),
        fontSize.reconfigure(fontTheme(globalSettings.fontSize)),
      ],
    });
  }
  // Scroll so that the UTF-16 position is visible (centred), without moving focus.
  reveal(pos) {
    const p = Math.max(0, Math.min(pos, this.view.state.doc.length));
    this.view.dispatch({ effects: EditorView.scrollIntoView(p, { y: "center" }) });
  }
  // Put the cursor at a position and focus the editor.
  jump(pos) {
    const p = Math.max(0, Math.min(pos, this.view.state.doc.length));
    this.view.dispatch({ selection: { anchor: p }, effects: EditorView.scrollIntoView(p, { y: "center" }) });
    this.view.focus();
  }
  focus() {
    this.view.focus();
  }
  destroy() {
    this.view.destroy();
  }
}

export function createEditor(parent, opts) {
  return new Editor(parent, opts || {});
}

// Typing's first keystrokes ran CodeMirror's code cold (interpreted, then optimized by the engine
// as it warmed up): the first dozens of keys took two to three times as long as later ones. This
// edits a hidden copy of the editor, with the same extensions and text, a few keystrokes per task
// while the page is idle, so that the engine has optimized that code before the user types.
// done() when finished. The copy is off screen and hidden from assistive technology.
const WARM_EDITS = 120;
export function warmUp(text, done) {
  const host = document.createElement("div");
  host.setAttribute("aria-hidden", "true");
  host.inert = true;
  Object.assign(host.style, { position: "fixed", left: "-10000px", top: "0", width: "800px", height: "400px", overflow: "hidden", contain: "strict" });
  document.body.append(host);
  const editor = new Editor(host, { doc: text, label: "warm-up copy" });
  const view = editor.view;
  const lines = view.state.doc.lines;
  let edit = 0;
  const step = () => {
    const t0 = performance.now();
    while (edit < WARM_EDITS && performance.now() - t0 < 4) {
      const line = view.state.doc.line(1 + ((edit * 7) % lines));
      // Type a digit at a line's end, then delete it, as a user would (the same user events).
      if (edit % 2 === 0) {
        view.dispatch({ changes: { from: line.to, insert: String(edit % 10) }, selection: { anchor: line.to + 1 }, userEvent: "input.type" });
      } else {
        const prev = view.state.doc.line(1 + (((edit - 1) * 7) % lines));
        view.dispatch({ changes: { from: prev.to - 1, to: prev.to }, selection: { anchor: prev.to - 1 }, userEvent: "delete.backward" });
      }
      edit++;
    }
    if (edit < WARM_EDITS) return setTimeout(step, 0);
    editor.destroy();
    host.remove();
    if (done) done();
  };
  setTimeout(step, 0);
}

export function compress(text) {
  return compressToEncodedURIComponent(text);
}

export function copyText(text) {
  if (navigator.clipboard && navigator.clipboard.writeText) {
    return navigator.clipboard.writeText(text).then(
      () => true,
      () => false,
    );
  }
  return Promise.resolve(false);
}
