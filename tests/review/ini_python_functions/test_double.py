from solution import double


def check_double():
    assert double(2) == 4


def test_helper_style():
    assert double(3) == 7
