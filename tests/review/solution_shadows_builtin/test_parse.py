from solution import parse


def test_parse_then_builtin_filter():
    assert list(filter(None, parse("0,1,2"))) == [1, 2]


def test_sorted_len():
    assert len(parse("3,1")) == 2
