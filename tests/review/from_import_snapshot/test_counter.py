from solution import COUNT, incr
import solution


def test_imported_name_is_a_snapshot():
    incr()
    assert COUNT == 0
    assert solution.COUNT == 1


def test_snapshot_phantom():
    incr()
    assert COUNT == 1
