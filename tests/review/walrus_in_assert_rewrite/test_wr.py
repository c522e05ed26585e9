from solution import three, grow


def test_walrus_then_use():
    assert (y := three()) == 3 and y + 1 == 4
    assert y == 3


def test_walrus_compare_chain():
    assert 0 < (z := three()) < z + 1


def test_walrus_name_reused():
    x = 1
    assert (x := three()) == x
    assert x == 3


def test_mutable_left_operand():
    xs = []
    assert xs == grow(xs)
