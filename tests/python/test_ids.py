"""Every `test` the extractor emits is a node id pytest collects from that file.

For every extractor fixture folder and every bench test file, pytest's own collection
(`pytest --collect-only -q`, run in the file's folder so `solution.py` imports) is compared with the
`test` of every assertion the `full` stage emits: an id pytest does not print cannot be matched to
pytest's outcome, which the contract forbids. Build the CLI first (`cargo build --bin bench-explorer`).

Run as a script (`python3 tests/python/test_ids.py`) to print the unmatched ids of every file.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import tempfile

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import faithful as fx  # noqa: E402

FIXTURES = sorted(p for p in (fx.ROOT / "tests" / "fixtures").iterdir() if p.is_dir())
PROBLEMS = sorted(p for p in (fx.ROOT / "problems").iterdir() if p.is_dir())


def _test_files(folder: pathlib.Path) -> list[pathlib.Path]:
    return sorted(folder.glob("test_*.py"))


FILES = [
    pytest.param(f, folder.parent.name == "problems", id=f"{folder.parent.name}/{folder.name}/{f.name}")
    for folder in PROBLEMS + FIXTURES
    for f in _test_files(folder)
]


def collected_ids(test_path: pathlib.Path) -> set[str] | None:
    """The node ids pytest collects from the file, without the file part; None if it cannot collect it."""
    with tempfile.TemporaryDirectory() as tmp:
        ini = pathlib.Path(tmp) / "pytest.ini"
        ini.write_text("[pytest]\n")
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
             "-c", str(ini), "--rootdir", str(test_path.parent), *_id_options(test_path.parent),
             test_path.name],
            cwd=test_path.parent, capture_output=True, text=True, timeout=120,
        )
    if proc.returncode not in (0, 5):  # 5: no tests collected
        return None
    prefix = test_path.name + "::"
    return {line[len(prefix):] for line in proc.stdout.splitlines() if line.startswith(prefix)}


def _id_options(folder: pathlib.Path) -> list[str]:
    """`-o` for the ini keys of the folder's own configuration that change ids (the empty ini above
    keeps every other key, such as `-m` in `addopts`, from changing what is collected)."""
    import configparser

    for name, section in (("pytest.ini", "pytest"), ("tox.ini", "pytest"), ("setup.cfg", "tool:pytest")):
        if not (folder / name).exists():
            continue
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read(folder / name, encoding="utf-8")
        except configparser.Error:
            return []  # a file pytest refuses too: nothing to carry over

        if parser.has_section(section):
            return [f"-o{key}={value}" for key, value in parser.items(section) if key == _NO_ESCAPING]
    return []


_NO_ESCAPING = "disable_test_id_escaping_and_forfeit_all_rights_to_community_support"


def unmatched(test_path: pathlib.Path, is_problem: bool) -> tuple[list[str], set[str]] | None:
    collected = collected_ids(test_path)
    if collected is None:
        return None
    extraction = fx.extract(test_path, slug=test_path.parent.name if is_problem else None)
    emitted = {a["test"] for a in extraction["assertions"]}
    return sorted(emitted - collected), collected


@pytest.mark.parametrize("test_path, is_problem", FILES)
def test_every_emitted_test_is_a_collected_node_id(test_path, is_problem):
    result = unmatched(test_path, is_problem)
    if result is None:
        pytest.skip("pytest cannot collect this file (it imports what the folder does not have)")
    missing, collected = result
    assert not missing, f"not collected by pytest: {missing}; pytest collects {sorted(collected)}"


def main() -> None:
    total = emitted_total = 0
    for param in FILES:
        test_path, is_problem = param.values
        result = unmatched(test_path, is_problem)
        if result is None:
            print(f"{param.id}: pytest cannot collect it")
            continue
        missing, _ = result
        total += len(missing)
        for m in missing:
            print(f"{param.id}: {m}")
    print(f"unmatched ids: {total}")


if __name__ == "__main__":
    main()
