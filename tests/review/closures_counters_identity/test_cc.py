from solution import make_counter, Widget, interned


def test_counter():
    step = make_counter()
    step()
    step()
    assert step() == 3


def test_class_counter():
    before = Widget.created
    a = Widget()
    b = Widget()
    assert b.id - a.id == 1
    assert Widget.created == before + 2


def test_cached_identity():
    first = interned("x")
    assert interned("x") is first
    del first
    assert interned("x") == ["x"]


def test_augmented_attribute():
    w = Widget()
    w.id += 10
    assert w.id > 10
