from solution import fmt, ident, negate


def test_bare_tuple():
    t = 1, 2
    assert "%d-%d" % t == fmt(t)


def test_singleton_tuple():
    t = 3,
    assert ident(t) == (3,)
    assert len(t) * 2 == 2


def test_starred_tuple():
    rest = [2, 3]
    t = 1, *rest
    assert ident(t) == (1, 2, 3)


def test_conditional():
    flag = ident(True)
    x = 1 if flag else 2
    assert x + 1 == 2


def test_not():
    y = ident(0)
    x = not y
    assert x == negate(y)


def test_lambda_called():
    k = ident(5)
    g = lambda: k
    assert g() == 5


def test_walrus_value():
    x = (n := ident(4))
    assert x * n == 16


def test_neg_power():
    x = -ident(2)
    assert x ** 2 == 4


def test_await_free_string_concat():
    s = "a" "b"
    assert s.upper() == ident("AB")


def test_compare_inline():
    x = ident(1) < 2
    assert x == True
    assert (x) is True
