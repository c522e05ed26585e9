// The sections of a wasm file, raw and gzip -9 alone (README's "### Size" table):
//   node scripts/wasm-sections.mjs dist/bench-explorer-web-<hash>_bg.wasm
import { readFileSync } from "node:fs";
import { gzipSync, constants as zc } from "node:zlib";

const NAMES = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"];
const buf = readFileSync(process.argv[2]);
let at = 8;
const leb = () => {
  let n = 0;
  let shift = 0;
  for (;;) {
    const b = buf[at++];
    n += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return n;
  }
};
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;
const rows = [];
while (at < buf.length) {
  const id = buf[at++];
  const size = leb();
  const body = buf.subarray(at, at + size);
  at += size;
  rows.push([NAMES[id] || `#${id}`, size, gzipSync(body, { level: zc.Z_BEST_COMPRESSION }).length]);
}
for (const [name, raw, gz] of rows) console.log(`${name.padEnd(10)} ${kb(raw).padStart(10)} ${kb(gz).padStart(10)}`);
console.log(`${"file".padEnd(10)} ${kb(buf.length).padStart(10)} ${kb(gzipSync(buf, { level: zc.Z_BEST_COMPRESSION }).length).padStart(10)}`);
