import pytest


@pytest.fixture
def unused():
    # A fixture no test requests: pytest runs the tests as before, the evaluator refuses the export.
    return 1


def add(a, b):
    return a + b
