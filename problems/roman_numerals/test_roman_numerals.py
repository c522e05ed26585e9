import importlib.util
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


to_roman = _load_solution().to_roman
from_roman = _load_solution().from_roman


class TestToRoman:
    def test_subtractive_forms(self):
        assert to_roman(1994) == "MCMXCIV"

    def test_four(self):
        assert to_roman(4) == "IV"

    def test_additive_only(self):
        assert to_roman(58) == "LVIII"

    def test_largest(self):
        numeral = to_roman(3999)
        assert numeral == "MMMCMXCIX"

    def test_zero_is_out_of_range(self):
        with pytest.raises(ValueError):
            to_roman(0)

    def test_4000_is_out_of_range(self):
        with pytest.raises(ValueError):
            to_roman(4000)


class TestFromRoman:
    def test_subtractive_forms(self):
        assert from_roman("MCMXCIV") == 1994

    def test_additive_only(self):
        assert from_roman("LVIII") == 58

    def test_repeated_thousands(self):
        value = from_roman("MMMCMXCIX")
        assert value == 3999

    def test_round_trip_over_the_whole_range(self):
        assert all(from_roman(to_roman(n)) == n for n in range(1, 4000))
