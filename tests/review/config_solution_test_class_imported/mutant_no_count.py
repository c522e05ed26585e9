class TestRunner:
    def __init__(self):
        self.passed = 0

    def check(self, ok):
        return self.passed
