from solution import parse, total


def test_rebound_later_by_for():
    assert parse("1 2") == [1, 2]
    for parse in ["a"]:
        pass


def test_rebound_later_by_import():
    assert total([1, 2]) == 3
    from solution import total


def test_rebound_by_except():
    assert parse("3") == [3]
    try:
        pass
    except ValueError as parse:
        pass


def test_rebound_in_nested_def_is_fine():
    def inner():
        parse = None
        return parse
    assert parse("4") == [4]


def test_walrus_in_comprehension_later():
    assert total([5]) == 5
    xs = [total := 1 for _ in range(1)]


def test_rebound_later_by_import_as():
    assert total([2, 2]) == 4
    import solution as total


def test_rebound_later_by_with():
    assert total([3]) == 3
    with open(__file__) as total:
        pass


def test_rebound_later_by_del():
    assert total([4]) == 4
    del total


def test_rebound_later_by_class():
    assert total([6]) == 6

    class total:
        pass


def test_rebound_later_by_augassign():
    assert total([7]) == 7
    total += 1
