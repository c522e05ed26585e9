import bisect
import importlib.util
import random
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


count_inversions = _load_solution().count_inversions


def test_empty_list():
    assert count_inversions([]) == 0


def test_sorted_list_has_none():
    assert count_inversions([1, 2, 3]) == 0


def test_reversed_triple():
    result = count_inversions([3, 2, 1])
    assert result == 3


def test_mixed_list():
    result = count_inversions([2, 4, 1, 3, 5])
    assert result == 3


def test_equal_values_are_not_inverted():
    assert count_inversions([1, 1, 1]) == 0


def test_duplicates_after_a_larger_value():
    result = count_inversions([5, 1, 1])
    assert result == 2


def test_fully_reversed():
    data = [4, 3, 2, 1]
    assert count_inversions(data) == 6


def test_negative_numbers():
    assert count_inversions([-1, -3, 2, -2]) == 3


def test_random_sample_against_a_running_count():
    random.seed(2024)
    data = random.sample(range(100000), 5000)
    expected = 0
    seen = []
    for value in data:
        position = bisect.bisect_right(seen, value)
        expected += len(seen) - position
        seen.insert(position, value)
    assert count_inversions(data) == expected
