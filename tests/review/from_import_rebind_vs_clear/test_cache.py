from solution import cache, put, reset


def test_reset_empties_the_shared_cache():
    put("a", 1)
    assert cache == {"a": 1}
    reset()
    assert cache == {}
