// Trunk's post-build hook (Trunk.toml): minifies the page's hand-written scripts, boot.js and
// extract-worker.js, in the build's staging folder (Trunk copies them as they are; their comments
// stay in www/). Neither has an integrity attribute to keep in step: boot.js is named by the
// <script> tag Trunk.toml's pattern_script writes, the worker by URL. esbuild, as scripts/bundle.mjs.
// Usage: TRUNK_STAGING_DIR=dir node scripts/minify.mjs   (or: node scripts/minify.mjs dir)
import { transform } from "esbuild";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error("usage: node scripts/minify.mjs DIR (or run from Trunk, which sets TRUNK_STAGING_DIR)");
  process.exit(2);
}
for (const name of ["boot.js", "extract-worker.js"]) {
  const file = path.join(dir, name);
  const source = readFileSync(file, "utf8");
  // Both are ES modules (boot.js a module script, the worker a module worker).
  const out = await transform(source, { loader: "js", format: "esm", minify: true, target: "es2020", legalComments: "none" });
  writeFileSync(file, out.code);
  console.log(`minified ${name}: ${source.length} -> ${out.code.length} bytes`);
}
