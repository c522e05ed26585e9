import solution


def test_alias_then_patch():
    original = solution.helper
    solution.helper = lambda: 10
    assert solution.api() == 11
    assert original() == 1


def test_patch_and_restore():
    saved = solution.helper
    solution.helper = lambda: 5
    patched = solution.api()
    solution.helper = saved
    assert patched == 6
    assert solution.api() == 2
