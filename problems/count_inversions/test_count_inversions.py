import importlib.util
import random
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


count_inversions = _load_solution().count_inversions


@pytest.mark.parametrize(
    "nums, expected",
    [
        ([], 0),
        ([1, 2, 3], 0),
        ([3, 2, 1], 3),
        ([2, 4, 1, 3, 5], 3),
        ([1, 1, 1], 0),
        ([5, 1, 1], 2),
    ],
)
def test_small_lists(nums, expected):
    assert count_inversions(nums) == expected


def test_matches_brute_force_on_random_sample():
    random.seed(2024)
    data = random.sample(range(1000), 200)
    expected = 0
    for i in range(len(data)):
        for j in range(i + 1, len(data)):
            if data[i] > data[j]:
                expected += 1
    assert count_inversions(data) == expected


def test_sorted_sample_has_no_inversions():
    random.seed(7)
    assert count_inversions(sorted(random.sample(range(100000), 5000))) == 0


def test_reversed_list_has_every_pair_inverted():
    n = 3000
    data = list(range(n, 0, -1))
    assert count_inversions(data) == n * (n - 1) // 2
