import importlib.util
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_solution = _load_solution()
rle_encode = _solution.rle_encode
rle_decode = _solution.rle_decode


@pytest.mark.parametrize(
    "text, encoded",
    [
        ("aaab", "3a1b"),
        ("", ""),
        ("w" * 12 + "b", "12w1b"),
    ],
)
def test_encode(text, encoded):
    assert rle_encode(text) == encoded


def test_decode():
    assert rle_decode("3x2y1z") == "xxxyyz"


def test_runs_of_one():
    assert rle_encode("abc") == "1a1b1c"


def test_decode_a_long_run():
    decoded = rle_decode("12w1b")
    assert decoded == "w" * 12 + "b"


def test_decode_empty():
    assert rle_decode("") == ""


@pytest.mark.parametrize(
    "text",
    [
        "hello  world",
        "z" * 25,
        pytest.param(
            "a1",
            marks=pytest.mark.xfail(
                reason="digits in the text cannot be told apart from run lengths",
                strict=True,
            ),
        ),
    ],
)
def test_round_trip(text):
    assert rle_decode(rle_encode(text)) == text
