from solution import score, reset


def test_walrus_name_equals_solution_global():
    reset()
    assert any((best := score(v)) >= 5 for v in [1, 5, 3])
    assert best == 5


def test_comprehension_walrus_then_call():
    reset()
    assert [best := v for v in [9]] == [9]
    assert score(2) == 2
