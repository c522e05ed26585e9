from solution import add, digits

PATTERN = "\d+"  # an invalid escape sequence: a DeprecationWarning (SyntaxWarning on 3.12) when compiled


def test_add():
    assert add(2, 3) == 5


def test_digits():
    assert digits("a1b22", "[0-9]+") == ["1", "22"]
