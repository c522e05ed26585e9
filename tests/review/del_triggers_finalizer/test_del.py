from solution import Handle, Session, active


def test_handle_released():
    h = Handle()
    assert Handle.live == 1
    del h
    assert Handle.live == 0


def test_session_forgotten():
    s = Session("a")
    assert active() == ["a"]
    s = None
    assert active() == []


def test_session_deleted():
    s = Session("b")
    del s
    assert active() == []
