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


def test_classic_example():
    best = _load_solution().max_subarray([-2, 1, -3, 4, -1, 2, 1, -5, 4])
    assert best == 6


def test_all_negative_picks_largest_element():
    best = _load_solution().max_subarray([-3, -1, -2])
    assert best == -1


def test_single_element():
    assert _load_solution().max_subarray([7]) == 7


def test_all_positive_takes_everything():
    best = _load_solution().max_subarray([1, 2, 3])
    assert best == 6


def test_zero_beats_negatives():
    assert _load_solution().max_subarray([0, -1, 0]) == 0


def test_empty_list_is_an_error():
    with pytest.raises(ValueError):
        _load_solution().max_subarray([])
