from collections import namedtuple

from solution import add

# a table-driven helper whose name pytest takes for a test class (it has a __new__ constructor):
# PytestCollectionWarning, an error under `filterwarnings = error`
TestCase = namedtuple("TestCase", "a b expected")

CASES = [TestCase(1, 2, 3), TestCase(2, 2, 4)]


def test_add():
    assert add(2, 3) == 5
