"""Test files and conftests in another encoding are read as Python reads them (PEP 263): the CLI's extraction
of a declared Latin-1, cp1252, KOI8-R or Shift-JIS file is the extraction of its text, and what Python refuses
(undeclared non-UTF-8 bytes, an unknown encoding) is refused with Python's reason, never read wrongly."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = pathlib.Path(os.environ.get("BENCH_EXPLORER_BIN", ROOT / "target" / "debug" / "bench-explorer"))

WORDS = {"latin-1": "René", "cp1252": "€uro", "koi8-r": "привет", "shift_jis": "こんにちは", "iso8859-15": "œuvre"}


@pytest.mark.parametrize("encoding", sorted(WORDS))
def test_a_declared_encoding_is_read_as_python_reads_it(tmp_path, encoding):
    word = WORDS[encoding]
    text = f"# -*- coding: {encoding} -*-\nfrom solution import echo\n\ndef test_echo():\n    assert echo('{word}') == '{word}'\n"
    (tmp_path / "test_echo.py").write_bytes(text.encode(encoding))
    (tmp_path / "solution.py").write_text("def echo(s):\n    return s\n")
    # pytest reads it so…
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout
    # …and the extraction keeps the check with the same text.
    out = subprocess.run([str(BIN), "extract", "--json", "test_echo.py"], cwd=tmp_path, capture_output=True, text=True)
    kept = [a["expr"] for a in json.loads(out.stdout)["assertions"] if a["status"] == "kept"]
    assert kept == [f"echo('{word}') == '{word}'"]


@pytest.mark.parametrize(
    "content, says",
    [
        (b"def test_x():\n    assert '\xe9'\n", "Non-UTF-8 code starting with '\\xe9'"),
        (b"# coding: klingon\ndef test_x():\n    assert 1\n", "unknown encoding: klingon"),
        (b"# coding: cp1252\ndef test_x():\n    assert '\x81'\n", "cp1252"),
    ],
)
def test_what_python_refuses_is_refused_with_its_reason(tmp_path, content, says):
    (tmp_path / "test_x.py").write_bytes(content)
    ran = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode != 0, "pytest refuses it too"
    out = subprocess.run([str(BIN), "extract", "test_x.py"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 2 and says in out.stderr and out.stdout == "", out.stderr


def test_a_conftest_python_would_not_read_is_not_skipped(tmp_path):
    # Before, an undecodable conftest was silently left out: its fixtures and hooks unseen.
    (tmp_path / "conftest.py").write_bytes(b"X = '\xe9'\n")
    (tmp_path / "test_x.py").write_text("def test_x():\n    assert 1 + 1 == 2\n")
    out = subprocess.run([str(BIN), "extract", "test_x.py"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 2 and "conftest.py, line 1" in out.stderr, out.stderr
