import solution
from solution import helper, api


def test_patch_module_keeps_imported_reference():
    solution.helper = lambda: 10
    assert api() == 11
    assert helper() == 1
