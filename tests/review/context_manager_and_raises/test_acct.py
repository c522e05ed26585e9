import pytest
from solution import Account


def test_raises_then_state():
    a = Account(5)
    with pytest.raises(ValueError):
        a.withdraw(10)
    assert a.log == ["denied"]
    assert a.balance == 5


def test_with_block():
    with Account(3) as a:
        a.withdraw(1)
    assert a.log == ["open", "close"]


def test_raises_match():
    a = Account()
    with pytest.raises(ValueError, match="insuff") as exc:
        a.withdraw(1)
    assert str(exc.value) == "insufficient"


def test_try_except():
    a = Account(1)
    try:
        a.withdraw(2)
    except ValueError:
        pass
    assert a.log == ["denied"]
