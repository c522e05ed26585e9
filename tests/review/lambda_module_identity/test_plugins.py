from solution import register, owners


def test_lambda_owned_by_test_module():
    register(lambda: None)
    assert owners() == ["test_plugins"]


def test_lambda_not_owned_by_solution():
    cb = lambda x: x
    register(cb)
    assert "solution" not in owners()
