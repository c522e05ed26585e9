import pytest

from solution import double, tokens


@pytest.mark.parametrize("word", ["ab-cd"])
def test_param_rebound_by_loop(word):
    for word in tokens(word):
        pass
    assert word == "cd"


def test_nested_same_target():
    seen = []
    for x in [1, 2]:
        for x in [10, 20]:
            seen.append(double(x))
        seen.append(x)
    assert seen == [20, 40, 20, 20, 40, 20]
    assert x == 20


def test_late_binding_lambdas():
    fns = []
    for k in [1, 2, 3]:
        fns.append(lambda: double(k))
    assert [f() for f in fns] == [6, 6, 6]


def test_default_binding_lambdas():
    fns = []
    for k in [1, 2, 3]:
        fns.append(lambda k=k: double(k))
    assert [f() for f in fns] == [2, 4, 6]


def test_comprehension_reads_target():
    rows = []
    for n in [1, 2]:
        rows.append([double(n) * i for i in range(n)])
    assert rows == [[0], [0, 4]]


def test_shared_iterator_with_next():
    it = iter([1, 2, 3, 4])
    pairs = []
    for a in it:
        b = next(it)
        pairs.append((double(a), b))
    assert pairs == [(2, 2), (6, 4)]
    assert list(it) == []


def test_stop_at_first_failure_counts():
    calls = []
    for i in [1, 2, 30, 4]:
        calls.append(i)
        assert double(i) == 2 * i
    assert calls == [1, 2, 30, 4]


def test_walrus_in_loop_assert():
    for i in [1, 2]:
        assert (d := double(i)) == 2 * i
    assert d == 4


def test_unpack_with_star():
    for first, *rest in [("a-b", 1, 2), ("c-d", 3)]:
        assert tokens(first)[0] in "ac"
    assert rest == [3]
