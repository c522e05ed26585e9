import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COINS = [1, 5, 10, 25]

min_coins = _load_solution().min_coins


def test_us_coins_63_cents():
    assert min_coins(COINS, 63) == 6


def test_zero_amount():
    assert min_coins(COINS, 0) == 0


def test_greedy_is_not_optimal():
    assert min_coins([1, 3, 4], 6) == 2


def test_impossible_amount():
    assert min_coins([2], 3) == -1


def test_impossible_with_several_coins():
    assert min_coins([5, 10], 7) == -1
