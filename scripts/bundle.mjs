// Bundles the page's JavaScript (www/editor/editor.js: CodeMirror 6 + lz-string) into one minified
// ES module. Run by Trunk's pre_build hook, which writes it into the build's staging folder; or by
// hand: `node scripts/bundle.mjs OUT_FILE`.
import { build } from "esbuild";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = process.argv[2] ?? (process.env.TRUNK_STAGING_DIR ? path.join(process.env.TRUNK_STAGING_DIR, "editor.js") : null);
if (!out) {
  console.error("usage: node scripts/bundle.mjs OUT_FILE (or run from Trunk, which sets TRUNK_STAGING_DIR)");
  process.exit(2);
}

const result = await build({
  absWorkingDir: root,
  entryPoints: ["www/editor/editor.js"],
  outfile: out,
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
});
const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`bundled www/editor/editor.js -> ${path.relative(root, out)} (${(bytes / 1024).toFixed(0)} KiB)`);
