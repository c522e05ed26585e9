// Trunk's post-build hook (Trunk.toml): minifies, in the build's staging folder, the page's
// hand-written scripts (boot.js and extract-worker.js; Trunk copies them as they are, their comments
// stay in www/), and the two files Trunk writes unminified: wasm-bindgen's JS glue
// (bench-explorer-web-<hash>.js, 73 KB with its comments and indentation) and the stylesheet
// (style-<hash>.css). Those two have an `integrity` attribute in index.html (the glue's
// modulepreload, the stylesheet's link): it is recomputed for the minified bytes. boot.js is named
// by the <script> tag Trunk.toml's pattern_script writes, the worker by URL: no integrity to keep.
// esbuild, as scripts/bundle.mjs.
// Usage: TRUNK_STAGING_DIR=dir node scripts/minify.mjs   (or: node scripts/minify.mjs dir)
import { transform } from "esbuild";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const dir = process.argv[2] ?? process.env.TRUNK_STAGING_DIR;
if (!dir) {
  console.error("usage: node scripts/minify.mjs DIR (or run from Trunk, which sets TRUNK_STAGING_DIR)");
  process.exit(2);
}
const sri = (bytes) => `sha384-${createHash("sha384").update(bytes).digest("base64")}`;

const files = readdirSync(dir);
const glue = files.filter((f) => /^bench-explorer-web-[0-9a-f]+\.js$/.test(f));
const css = files.filter((f) => /^style-[0-9a-f]+\.css$/.test(f));
const jobs = [
  ...["boot.js", "extract-worker.js"].map((name) => ({ name, loader: "js", integrity: false })),
  ...glue.map((name) => ({ name, loader: "js", integrity: true })),
  ...css.map((name) => ({ name, loader: "css", integrity: true })),
];
const indexFile = path.join(dir, "index.html");
let index = readFileSync(indexFile, "utf8");
for (const { name, loader, integrity } of jobs) {
  const file = path.join(dir, name);
  const source = readFileSync(file, "utf8");
  const before = integrity ? sri(source) : null;
  // The scripts are ES modules (boot.js a module script, the worker a module worker, the glue
  // imported by boot.js); esbuild keeps their exports' and the glue's import object's names.
  const options =
    loader === "js"
      ? { loader, format: "esm", minify: true, target: "es2020", legalComments: "none" }
      : { loader, minify: true, legalComments: "none" };
  const out = await transform(source, options);
  writeFileSync(file, out.code);
  if (integrity) {
    if (!index.includes(before)) {
      console.error(`minify: index.html has no integrity ${before} for ${name}`);
      process.exit(1);
    }
    index = index.split(before).join(sri(out.code));
  }
  console.log(`minified ${name}: ${source.length} -> ${out.code.length} bytes`);
}
writeFileSync(indexFile, index);
