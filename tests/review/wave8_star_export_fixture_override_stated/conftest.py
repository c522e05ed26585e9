import pytest


@pytest.fixture
def offset():
    return 0
