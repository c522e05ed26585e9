from solution import Bag

BAG = None


def test_global_rebind():
    global BAG
    BAG = Bag()
    BAG.add(1)
    assert BAG.items == [1]


def test_fstring_local():
    b = Bag().add("x")
    assert f"{b.items!r:>8}" == "   ['x']"
    assert f"{len(b.items)=}" == "len(b.items)=1"
