from solution import Meter


def test_property_reads_count():
    m = Meter()
    m.reading
    assert m.reading == 2


def test_eq_then_read():
    m = Meter()
    assert m == 10
    assert m.reading == 11


def test_truth_then_read():
    m = Meter()
    assert m
    assert m.reading == 101


def test_in_list():
    m = Meter()
    assert m in [10]
    assert m._reads == 10


def test_msg_not_evaluated():
    m = Meter()
    assert m.reading == 1, f"reads were {m.reading}"
    assert m.reading == 2
