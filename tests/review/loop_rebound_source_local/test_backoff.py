from solution import backoff, retry_plan


def test_backoff_schedule():
    attempts = 0
    limit = attempts  # meant MAX_ATTEMPTS: limit is 0, so the loop never runs
    attempts = 4
    for i in range(limit):
        assert backoff(i) == 2 ** i


def test_plan_entries():
    expected = []
    todo = expected  # an alias of the empty list, not of the list bound next
    expected = [1, 2, 4]
    for k in todo:
        assert backoff(k) == expected[k]


def test_plan_length():
    assert len(retry_plan(3)) == 3


def test_closure_clears_the_later_list():
    pending = []
    reset = lambda: pending.clear()  # closes over the name, not over this list
    pending = [1, 2]
    reset()  # clears [1, 2]: the loop below iterates nothing
    for k in pending:
        assert backoff(k) == 2 ** k
