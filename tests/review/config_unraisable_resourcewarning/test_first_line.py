from solution import first_line


def test_first_line():
    assert first_line("data.txt") == "alpha"
