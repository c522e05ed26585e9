import importlib.util
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


roman = _load_solution()


class TestToRoman:
    def test_subtractive_forms(self):
        assert roman.to_roman(1994) == "MCMXCIV"

    def test_four(self):
        assert roman.to_roman(4) == "IV"

    def test_largest(self):
        numeral = roman.to_roman(3999)
        assert numeral == "MMMCMXCIX"

    def test_zero_is_out_of_range(self):
        with pytest.raises(ValueError):
            roman.to_roman(0)

    def test_4000_is_out_of_range(self):
        with pytest.raises(ValueError):
            roman.to_roman(4000)


class TestFromRoman:
    def test_subtractive_forms(self):
        assert roman.from_roman("MCMXCIV") == 1994

    def test_additive_only(self):
        assert roman.from_roman("LVIII") == 58

    def test_round_trip_over_the_whole_range(self):
        assert all(roman.from_roman(roman.to_roman(n)) == n for n in range(1, 4000))
