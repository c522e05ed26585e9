import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_repeated_values_count_by_position():
    count = _load_solution().count_pairs([1, 5, 7, -1, 5], 6)
    assert count == 3


def test_all_equal_values():
    sol = _load_solution()
    count = sol.count_pairs([1, 1, 1, 1], 2)
    assert count == 6


def test_element_not_paired_with_itself():
    sol = _load_solution()
    assert sol.count_pairs([3], 6) == 0


def test_empty_list():
    sol = _load_solution()
    assert sol.count_pairs([], 0) == 0


def test_two_kinds_of_pair():
    sol = _load_solution()
    nums = [2, 4, 3, 3]
    assert sol.count_pairs(nums, 6) == 2


def test_negatives_and_zeros():
    sol = _load_solution()
    nums = [-2, 2, 0, 0]
    count = sol.count_pairs(nums, 0)
    assert count == 2


def test_no_pair_reaches_target():
    sol = _load_solution()
    assert sol.count_pairs([1, 2, 3], 10) == 0


def test_three_equal_halves():
    sol = _load_solution()
    count = sol.count_pairs([5, 5, 5], 10)
    assert count == 3
