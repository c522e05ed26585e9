import warnings

from solution import total


def setup_module():
    # runs in the first test's setup, inside that test's catch_warnings: undone after it
    warnings.simplefilter("ignore", FutureWarning)


def test_first():
    assert total([1, 2]) == 3


def test_second():
    assert total([2, 2]) == 4
