from solution import key, value, LOG, Config


def test_store_order():
    LOG.clear()
    d = {}
    d[key()] = value()
    assert LOG == ["value", "key"]


def test_setitem_and_delete():
    c = Config()
    c["a"] = 1
    c["b"] = 2
    del c["a"]
    assert "a" not in c
    assert "b" in c
