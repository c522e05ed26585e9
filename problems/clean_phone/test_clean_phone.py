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


clean_phone = _load_solution().clean_phone


def test_parentheses_and_dash():
    assert clean_phone("(555) 123-4567") == "5551234567"


def test_dots():
    assert clean_phone("555.123.4567") == "5551234567"


def test_leading_country_code_is_stripped():
    result = clean_phone("1-555-123-4567")
    assert result == "5551234567"


def test_plus_one_prefix():
    assert clean_phone("+1 555.123.4567") == "5551234567"


def test_country_code_without_punctuation():
    result = clean_phone("15551234567")
    assert result == "5551234567"


def test_ten_digits_starting_with_one_are_kept():
    assert clean_phone("123.456.7890") == "1234567890"


def test_too_few_digits():
    with pytest.raises(ValueError):
        clean_phone("555-1234")


def test_eleven_digits_with_wrong_country_code():
    with pytest.raises(ValueError):
        clean_phone("2-555-123-4567")


def test_letters_are_rejected():
    with pytest.raises(ValueError):
        clean_phone("555-CALL-NOW")


def test_spaces_only():
    assert clean_phone("555 123 4567") == "5551234567"
