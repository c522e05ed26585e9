import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WORDS = ["the", "day", "is", "sunny", "the", "the", "the", "sunny", "is", "is"]


def test_full_ranking():
    sol = _load_solution()
    assert sol.top_k_words(WORDS, 4) == ["the", "is", "sunny", "day"]


def test_only_the_top_word():
    sol = _load_solution()
    assert sol.top_k_words(WORDS, 1) == ["the"]


def test_k_larger_than_vocabulary():
    sol = _load_solution()
    assert sol.top_k_words(WORDS, 10) == ["the", "is", "sunny", "day"]


def test_ties_break_alphabetically():
    sol = _load_solution()
    top = sol.top_k_words(["b", "a", "c"], 2)
    assert top == ["a", "b"]


def test_case_is_significant():
    sol = _load_solution()
    top = sol.top_k_words(["A", "a", "a"], 2)
    assert top == ["a", "A"]


def test_single_word():
    assert _load_solution().top_k_words(["solo"], 1) == ["solo"]


def test_k_zero_gives_nothing():
    sol = _load_solution()
    top = sol.top_k_words(["a", "b", "a"], 0)
    assert top == []


def test_frequency_beats_alphabet():
    sol = _load_solution()
    assert sol.top_k_words(["z", "z", "a"], 2) == ["z", "a"]
