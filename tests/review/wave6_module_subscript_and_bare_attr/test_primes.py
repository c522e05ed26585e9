import solution

solution.__version__  # noqa: B018  -- collection fails loudly when the solution is not versioned
SMALLEST = solution.PRIMES[0]


def test_smallest():
    assert SMALLEST == 2


def test_is_prime():
    assert solution.is_prime(13)


def test_one():
    assert not solution.is_prime(1)
