import pytest

from solution import from_roman, to_roman

NUMBERS = [1, 4, 9, 14, 40, 1994]
NUMERALS = ["I", "IV", "IX", "XIV", "XL", "MCMXCIV"]
CASES = zip(NUMBERS, NUMERALS)


@pytest.mark.parametrize("n, numeral", CASES)
def test_to_roman(n, numeral):
    assert to_roman(n) == numeral


def test_from_roman_table():
    # CASES is the zip above: parametrize consumed it while the module was imported,
    # so under pytest this loop iterates nothing and its assert never runs.
    for n, numeral in CASES:
        assert from_roman(numeral) == n


def test_round_trip():
    for n in range(1, 50):
        assert from_roman(to_roman(n)) == n
