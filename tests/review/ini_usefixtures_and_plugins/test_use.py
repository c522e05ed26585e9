from solution import register, check


def test_register_after_prime():
    assert register("x") == 2

