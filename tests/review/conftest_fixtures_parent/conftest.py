import pytest
import solution


@pytest.fixture
def registry():
    solution.REG.clear()
    solution.register("base")
    return solution.REG


@pytest.fixture(autouse=True)
def seeded():
    solution.REG.append("auto")
    yield
    solution.REG.clear()
