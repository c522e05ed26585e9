import pytest
from solution import Cart


@pytest.fixture
def items():
    return []


@pytest.fixture
def cart(items):
    return Cart(items)


def test_cart_writes_through(cart, items):
    cart.add("apple")
    assert items == ["apple"]


def test_same_fixture_object(items, cart):
    assert cart.items is items
