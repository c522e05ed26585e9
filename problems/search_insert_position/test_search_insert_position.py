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


BASE = [1, 3, 5, 6]


@pytest.mark.parametrize("shift", [0, 100])
@pytest.mark.parametrize("target, expected", [(5, 2), (2, 1), (7, 4)])
def test_insert_position(target, expected, shift):
    nums = [n + shift for n in BASE]
    assert _load_solution().search_insert(nums, target + shift) == expected


def test_empty_list():
    assert _load_solution().search_insert([], 3) == 0
