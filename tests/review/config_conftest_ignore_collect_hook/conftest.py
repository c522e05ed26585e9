def pytest_ignore_collect(collection_path, config):
    # the project keeps slow suites out unless asked for
    if collection_path.name == "test_add.py":
        return True
    return None
