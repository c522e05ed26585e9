import pytest
import solution


@pytest.fixture
def prime():
    solution.register("primed")

