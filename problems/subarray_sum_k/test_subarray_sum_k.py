import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_two_overlapping_pairs():
    count = _load_solution().subarray_sum([1, 1, 1], 2)
    assert count == 2


def test_single_element_and_pair():
    count = _load_solution().subarray_sum([1, 2, 3], 3)
    assert count == 2


def test_empty_list_has_no_subarrays():
    assert _load_solution().subarray_sum([], 0) == 0


def test_every_subarray_of_zeros():
    count = _load_solution().subarray_sum([0, 0, 0], 0)
    assert count == 6


def test_negative_numbers_cancel_out():
    count = _load_solution().subarray_sum([1, -1, 0], 0)
    assert count == 3


def test_longer_list_with_negatives():
    nums = [3, 4, 7, 2, -3, 1, 4, 2]
    count = _load_solution().subarray_sum(nums, 7)
    assert count == 4


def test_single_element_equal_to_k():
    assert _load_solution().subarray_sum([5], 5) == 1


def test_no_subarray_reaches_k():
    count = _load_solution().subarray_sum([1, 2, 3], 7)
    assert count == 0
