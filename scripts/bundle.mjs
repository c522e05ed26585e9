// Bundles the page's JavaScript (www/editor/editor.js: CodeMirror 6 + lz-string) into one minified
// ES module, and CodeMirror's search (www/editor/search.js) into editor-search.js beside it, loaded
// on first use, which takes @codemirror/state and @codemirror/view from ./editor.js (one instance of
// each). Run by Trunk's pre_build hook, which writes them into the build's staging folder; or by
// hand: `node scripts/bundle.mjs OUT_FILE` (editor-search.js goes beside OUT_FILE).
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] ?? (process.env.TRUNK_STAGING_DIR ? path.join(process.env.TRUNK_STAGING_DIR, "editor.js") : null);
if (!out) {
  console.error("usage: node scripts/bundle.mjs OUT_FILE (or run from Trunk, which sets TRUNK_STAGING_DIR)");
  process.exit(2);
}

const common = {
  absWorkingDir: root,
  bundle: true,
  format: "esm",
  minify: true,
  target: "es2020",
  legalComments: "eof",
  logLevel: "warning",
  metafile: true,
  // CodeMirror's background parser works in slices of up to 100 ms when the browser has
  // navigator.scheduling.isInputPending (Chromium), trusting it to yield to input; that is a 100 ms
  // long task per slice on a large file. Hidden from the bundle, the parser keeps to the idle
  // callback's deadline (at most 45 ms a slice).
  define: { "navigator.scheduling": "undefined" },
};
const result = await build({ ...common, entryPoints: ["www/editor/editor.js"], outfile: out });
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`bundled www/editor/editor.js -> ${path.relative(root, out)} (${(bytes / 1024).toFixed(0)} KiB)`);

// The search: every import of CodeMirror's state or view becomes one of ./editor.js (which
// re-exports what the search uses), never a second copy.
const searchOut = path.join(path.dirname(out), "editor-search.js");
const fromEditor = {
  name: "from-editor",
  setup(b) {
    b.onResolve({ filter: /^@codemirror\/(state|view)$/ }, () => ({ path: "./editor.js", external: true }));
  },
};
const searched = await build({ ...common, entryPoints: ["www/editor/search.js"], outfile: searchOut, plugins: [fromEditor] });
const searchBytes = Object.values(searched.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`bundled www/editor/search.js -> ${path.relative(root, searchOut)} (${(searchBytes / 1024).toFixed(0)} KiB)`);
