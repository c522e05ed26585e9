class TestRunner:
    """The problem: a tiny test runner that counts passing checks."""

    def __init__(self):
        self.passed = 0

    def check(self, ok):
        self.passed += bool(ok)
        return self.passed
