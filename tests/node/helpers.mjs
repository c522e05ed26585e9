// Shared by the Node tests: where things are, and an engine built from local files.
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const wwwDir = join(repoRoot, "www");
export const wheelsDir = join(wwwDir, "vendor", "wheels");
export const pyodideDir = dirname(fileURLToPath(import.meta.resolve("pyodide")));

/** The wheel names from www/vendor/wheels/index.json, with a clear error when set-up has not run. */
export async function listWheels() {
  const index = join(wheelsDir, "index.json");
  if (!existsSync(index)) {
    throw new Error(`${index} is missing: run \`bash scripts/setup.sh wheels pyodide\` first`);
  }
  return JSON.parse(await readFile(index, "utf8")).wheels;
}

/** createEngine options that read Pyodide from node_modules and everything else from www/. */
export async function nodeEngineOptions(extra = {}) {
  const { loadPyodide } = await import("pyodide");
  return {
    loadPyodide,
    indexURL: pyodideDir + "/",
    listWheels,
    readWheel: (name) => readFile(join(wheelsDir, name)),
    runnerSource: () => readFile(join(wwwDir, "py", "runner.py"), "utf8"),
    // Keep Pyodide's own stdout (if any) out of the test report.
    pyodideOptions: { stdout: () => {}, stderr: () => {} },
    ...extra,
  };
}
