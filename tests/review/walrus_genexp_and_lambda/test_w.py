from solution import values


def test_walrus_leaks_from_genexp():
    assert any((big := v) > 4 for v in values())
    assert big == 5


def test_late_binding_lambda():
    k = 1
    add = lambda x: x + k
    k = 10
    assert add(values()[0]) == 11


def test_default_binding():
    k = 1
    add = lambda x, k=k: x + k
    k = 10
    assert add(values()[0]) == 2
