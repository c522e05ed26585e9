from solution import first, second, LOG


def test_order():
    LOG.clear()
    a = first()
    assert second() == a + 1


def test_order_in_call():
    LOG.clear()
    a = first()
    b = second()
    assert [b, a] == [2, 1]


def test_chain():
    LOG.clear()
    x = first()
    assert 0 < x < second()
