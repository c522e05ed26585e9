import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "big" in item.name:
            item.add_marker(pytest.mark.slow)
