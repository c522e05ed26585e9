from solution import register, count


def test_register():
    register("a")
    assert count() == 1


def test_starts_empty():
    assert count() == 0
