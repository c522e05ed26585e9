import solution


def test_parse() -> solution.Result:
    assert solution.parse("1,2") == [1, 2]


def test_empty():
    assert solution.parse("") == []
