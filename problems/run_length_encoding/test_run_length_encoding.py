import importlib.util
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec is not None and spec.loader is not None
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
