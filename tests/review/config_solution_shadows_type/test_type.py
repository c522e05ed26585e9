from solution import type


def test_number():
    assert type(3) == "number"


def test_boolean():
    assert type(True) == "boolean"
