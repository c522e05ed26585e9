from solution import register, REG


def test_register(registry):
    assert register("x") == 2


def test_autouse_seen():
    assert REG == ["auto"]


def test_plain():
    assert register("y") == 2
