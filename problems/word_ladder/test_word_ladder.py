import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


word_ladder = _load_solution().word_ladder


def test_classic_hit_to_cog():
    result = word_ladder("hit", "cog", ["hot", "dot", "dog", "lot", "log", "cog"])
    assert result == 5


def test_end_word_not_in_list():
    result = word_ladder("hit", "cog", ["hot", "dot", "dog", "lot", "log"])
    assert result == 0


def test_single_step():
    assert word_ladder("a", "c", ["a", "b", "c"]) == 2


def test_no_connecting_words():
    result = word_ladder("abc", "xyz", ["abd", "xyz"])
    assert result == 0


def test_begin_equals_end():
    result = word_ladder("same", "same", ["same"])
    assert result == 1


def test_four_letter_chain():
    words = ["load", "goad", "gold", "lold"]
    result = word_ladder("lead", "gold", words)
    assert result == 4


def test_duplicate_words_are_harmless():
    result = word_ladder("hot", "dog", ["hot", "dog", "dot", "dot"])
    assert result == 3
