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


BASE = [1, 3, 5, 6]


@pytest.mark.parametrize("shift", [0, 100])
@pytest.mark.parametrize("target, expected", [(5, 2), (2, 1), (7, 4)])
def test_insert_position(target, expected, shift):
    nums = [n + shift for n in BASE]
    assert _load_solution().search_insert(nums, target + shift) == expected


def test_empty_list():
    assert _load_solution().search_insert([], 3) == 0


@pytest.mark.parametrize(
    "arr, target, expected",
    [
        ([1, 3, 5, 6], 0, 0),
        ([1, 3, 5, 6], 6, 3),
        ([2], 3, 1),
    ],
)
def test_edges(arr, target, expected):
    assert _load_solution().search_insert(arr, target) == expected


def test_target_found_at_the_start():
    assert _load_solution().search_insert([4, 8, 15], 4) == 0


def test_insert_in_the_middle():
    position = _load_solution().search_insert([10, 20, 30, 40], 25)
    assert position == 2


def test_negative_numbers():
    position = _load_solution().search_insert([-9, -4, 0, 3], -5)
    assert position == 1


def test_single_element_list():
    assert _load_solution().search_insert([5], 5) == 0
