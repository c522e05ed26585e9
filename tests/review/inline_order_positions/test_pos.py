from solution import next_id, pair, box, reset


def test_subtract():
    reset()
    a = next_id()
    assert next_id() - a == 1


def test_kwargs():
    reset()
    a = next_id()
    b = next_id()
    assert pair(y=b, x=a) == (1, 2)


def test_receiver():
    reset()
    a = next_id()
    b = box()
    assert b.minus(a) == 1


def test_dict_display():
    reset()
    a = next_id()
    b = next_id()
    assert {b: "b", a: "a"} == {2: "b", 1: "a"}


def test_subscript():
    reset()
    a = next_id()
    table = {1: "one", 2: "two"}
    assert table[a] + table[next_id()] == "onetwo"


def test_starred():
    reset()
    a = next_id()
    rest = [next_id()]
    assert pair(*rest, a) == (2, 1)


def test_fstring():
    reset()
    a = next_id()
    assert f"{next_id()}-{a}" == "2-1"


def test_not_in():
    reset()
    a = next_id()
    assert next_id() not in [a]
