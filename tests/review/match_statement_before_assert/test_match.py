from solution import classify


def test_match():
    kind = None
    match classify(3):
        case ("num", n):
            kind = n
    assert kind == 3


def test_annotated():
    result: tuple = classify("a")
    assert result == ("str", "a")
