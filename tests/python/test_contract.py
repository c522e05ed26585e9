"""The CLI's JSON matches the contract's schema (docs/contract.schema.json, generated from the library's
types): every behaviour fixture and every bench test file, in every stage."""

import json
import os
import pathlib
import subprocess

import jsonschema
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("BENCH_EXPLORER_BIN", ROOT / "target" / "debug" / "bench-explorer"))
SCHEMA = json.loads((ROOT / "docs" / "contract.schema.json").read_text())
STAGES = ["as-written", "six-shapes", "seven-shapes", "full"]

FILES = sorted(
    [*ROOT.glob("tests/fixtures/*/test_*.py"), *ROOT.glob("problems/*/test_*.py")],
    key=lambda p: str(p),
)


def test_there_are_files_to_check():
    assert len(FILES) >= 50


@pytest.mark.parametrize("stage", STAGES)
def test_every_file_matches_the_schema(stage):
    validator = jsonschema.Draft7Validator(SCHEMA)
    out = subprocess.run(
        [str(BIN), "extract", "--json", "--stage", stage, *map(str, FILES)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert out.returncode in (0, 1), out.stderr
    extractions = json.loads(out.stdout)
    assert len(extractions) == len(FILES)
    for path, extraction in zip(FILES, extractions):
        assert extraction["stage"] == stage
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(extraction)]
        assert errors == [], f"{path.relative_to(ROOT)}: {errors[:5]}"


def test_the_schema_rejects_what_the_contract_forbids():
    # The check above can fail: an assertion without its status, or with an unknown shape, is refused.
    validator = jsonschema.Draft7Validator(SCHEMA)
    out = subprocess.run(
        [str(BIN), "extract", "--json", str(FILES[0])], capture_output=True, text=True, cwd=ROOT, check=False
    )
    good = json.loads(out.stdout)
    assert validator.is_valid(good)
    bad = json.loads(out.stdout)
    bad["version"] = "1"
    assert not validator.is_valid(bad)
    bad = json.loads(out.stdout)
    bad["findings"] = [{"shape": "no-such-shape", "line": 1, "message": ""}]
    assert not validator.is_valid(bad)
