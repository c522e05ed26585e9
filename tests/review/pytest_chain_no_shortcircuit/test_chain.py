from solution import limit_for, probe, CALLS


def test_out_of_range_is_rejected():
    n = -1
    assert not (0 < n < limit_for(n))


def test_chain_side_effects():
    CALLS.clear()
    assert not (probe(5) < probe(1) < probe(9))
    assert CALLS == [5, 1]
