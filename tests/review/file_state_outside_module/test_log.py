from solution import log_event, count, clear


def test_events():
    clear()
    log_event("a")
    assert count() == 1
    log_event("b")
    assert count() == 2


def test_forgot_clear():
    log_event("z")
    assert count() >= 1
