from solution import parse, fmt


def test_parse():
    assert parse("12") == 12


def test_zfmt():
    assert fmt(12) == "12"
