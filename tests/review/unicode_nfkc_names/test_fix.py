from solution import fix


def test_nfkc_local_shadows_solution_name():
    ﬁx = 41
    assert fix == 41


def test_call():
    résultat = fix(1)
    assert résultat == 2
