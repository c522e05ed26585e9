from solution import deprecations, old_total


def test_old_total_is_deprecated():
    assert deprecations(old_total, [1, 2]) == ["use total()"]
