from solution import backoff, under_test


def test_no_wait_in_tests():
    assert backoff(3) == 0


def test_detects_pytest():
    assert under_test()
