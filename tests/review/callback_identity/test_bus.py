from solution import Bus


def test_lambda_registered():
    bus = Bus()
    cb = lambda e: e * 2
    bus.subscribe(cb)
    assert bus.handlers == [cb]


def test_lambda_in_assert_only():
    cb = lambda e: e + 1
    assert Bus().subscribe(cb) == cb


def test_def_registered():
    def on_event(e):
        return e - 1
    bus = Bus()
    bus.subscribe(on_event)
    assert bus.handlers[0] is on_event
    assert bus.emit(3) == [2]
