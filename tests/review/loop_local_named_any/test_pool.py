from solution import Pool


def test_checkout_any():
    pool = Pool(["a", "b", "c"])
    any = pool.checkout()  # "check out any free worker"
    for name in ["a", "b", "c"]:
        assert pool.is_known(name)
    assert not pool.is_free(any)


def test_each_worker_once():
    pool = Pool(["x", "y"])
    for any in ["x", "y"]:
        assert pool.checkout() == any
