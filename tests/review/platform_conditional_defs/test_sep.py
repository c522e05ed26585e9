import sys
from solution import sep

if sys.platform == "win32":
    def test_windows_sep():
        assert sep() == "\\"
else:
    def test_posix_sep():
        assert sep() == "/"

try:
    import numpy_not_installed_xyz
except ImportError:
    pass
else:
    def test_with_numpy():
        assert sep() == "/"
