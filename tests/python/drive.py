"""Run one solution against one test file both ways, in a fresh process, and print JSON.

    python3 tests/python/drive.py TEST_FILE SOLUTION_FILE EXTRACTION_JSON

Prints {"pytest": run_pytest(...), "evals": eval_assertions(...)} using www/py/runner.py, the same
code the page's Pyodide worker runs, so the native checks and the browser share one definition of
"evaluate a kept assertion".
"""

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "www" / "py"))

import runner  # noqa: E402


def main() -> None:
    test_path, solution_path, extraction_path = map(pathlib.Path, sys.argv[1:4])
    extraction = json.loads(extraction_path.read_text())
    solution = solution_path.read_text()
    kept = [
        {"id": i, "expr": a["expr"]}
        for i, a in enumerate(extraction["assertions"])
        if a["status"] == "kept"
    ]
    evals = runner.eval_assertions(solution, kept)
    result = runner.run_pytest(test_path.read_text(), test_path.name, solution)
    json.dump({"pytest": result, "evals": evals}, sys.stdout)


if __name__ == "__main__":
    main()
