import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_both_empty():
    assert _load_solution().damerau_levenshtein("", "") == 0


def test_insert_everything():
    distance = _load_solution().damerau_levenshtein("", "abc")
    assert distance == 3


def test_delete_everything():
    distance = _load_solution().damerau_levenshtein("abc", "")
    assert distance == 3


def test_identical_strings():
    assert _load_solution().damerau_levenshtein("same", "same") == 0


def test_one_substitution():
    assert _load_solution().damerau_levenshtein("a", "b") == 1


def test_adjacent_swap_costs_one():
    distance = _load_solution().damerau_levenshtein("ab", "ba")
    assert distance == 1


def test_swap_inside_a_word():
    distance = _load_solution().damerau_levenshtein("abc", "acb")
    assert distance == 1


def test_kitten_sitting():
    distance = _load_solution().damerau_levenshtein("kitten", "sitting")
    assert distance == 3


def test_flaw_lawn():
    distance = _load_solution().damerau_levenshtein("flaw", "lawn")
    assert distance == 2


def test_two_swaps():
    distance = _load_solution().damerau_levenshtein("abcdef", "abcfed")
    assert distance == 2


def test_osa_does_not_edit_a_swapped_pair_again():
    distance = _load_solution().damerau_levenshtein("ca", "abc")
    assert distance == 3


def test_case_matters():
    assert _load_solution().damerau_levenshtein("Hello", "hello") == 1
