from solution import TestRunner  # pytest also sees a Test* class with a constructor here


def test_check_counts():
    assert TestRunner().check(True) == 1
