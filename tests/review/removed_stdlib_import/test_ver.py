from distutils.version import LooseVersion
from solution import version_tuple


def test_tuple():
    assert version_tuple("1.2") == (1, 2)
