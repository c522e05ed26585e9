import solution as sol


def test_f():
    assert sol.f(1) == 2
    assert sol.PROBES == []
