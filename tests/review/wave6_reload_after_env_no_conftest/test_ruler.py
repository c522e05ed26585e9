import importlib

import solution


def test_default():
    assert solution.ruler(2) == "--"


def test_reload_keeps_module():
    again = importlib.reload(solution)
    assert again is solution
