import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lcs_length = _load_solution().lcs_length


class TestLcsLength:
    def test_gaps_are_allowed(self):
        assert lcs_length("abcde", "ace") == 3

    def test_nothing_in_common(self):
        assert lcs_length("abc", "def") == 0

    def test_empty_string(self):
        assert lcs_length("", "abc") == 0

    def test_textbook_pair(self):
        length = lcs_length("AGGTAB", "GXTXAYB")
        assert length == 4

    def test_case_sensitive(self):
        length = lcs_length("abc", "ABC")
        assert length == 0


class TestLcsLengthEdges:
    def test_identical_strings(self):
        assert lcs_length("abcd", "abcd") == 4

    def test_order_matters(self):
        length = lcs_length("abc", "cba")
        assert length == 1
