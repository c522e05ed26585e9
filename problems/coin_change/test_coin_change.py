import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
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


def test_single_coin_exact():
    assert min_coins([7], 21) == 3


def test_only_pennies():
    assert min_coins([1], 9) == 9


def test_largest_coin_first_is_not_always_best():
    count = min_coins([1, 5, 6, 9], 11)
    assert count == 2
