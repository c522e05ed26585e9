import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestMergeIntervals:
    def test_overlapping_pairs_merge(self):
        merged = _load_solution().merge_intervals([[1, 3], [2, 6], [8, 10], [15, 18]])
        assert merged == [[1, 6], [8, 10], [15, 18]]

    def test_touching_intervals_merge(self):
        assert _load_solution().merge_intervals([[1, 4], [4, 5]]) == [[1, 5]]

    def test_unsorted_input(self):
        merged = _load_solution().merge_intervals([[5, 6], [1, 2]])
        assert merged == [[1, 2], [5, 6]]

    def test_empty_input(self):
        assert _load_solution().merge_intervals([]) == []

    def test_one_interval_swallows_the_rest(self):
        intervals = [[1, 10], [2, 3], [4, 5]]
        assert _load_solution().merge_intervals(intervals) == [[1, 10]]

    def test_single_interval(self):
        assert _load_solution().merge_intervals([[3, 7]]) == [[3, 7]]

    def test_gap_of_one_does_not_merge(self):
        merged = _load_solution().merge_intervals([[1, 2], [3, 4]])
        assert merged == [[1, 2], [3, 4]]
