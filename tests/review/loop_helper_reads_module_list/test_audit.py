from solution import log_event

AUDIT = []
TRAIL = []


def audit(event):
    return log_event(event, AUDIT)


def trail(event):
    return log_event(event, TRAIL)


def test_audit_counts_in_loop():
    for n, event in enumerate(["login", "view", "logout"], 1):
        assert audit(event) == n


def test_trail_twice():
    trail("open")
    assert trail("close") == 2
