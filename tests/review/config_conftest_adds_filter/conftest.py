def pytest_configure(config):
    # the project's filters live in code: every warning is an error
    config.addinivalue_line("filterwarnings", "error")
