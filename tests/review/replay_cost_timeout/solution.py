import time

class Index:
    def __init__(self):
        self.items = []
    def build(self, n):
        time.sleep(1.1)  # stands for an expensive, correct build step
        self.items = list(range(n))
        return self
    def size(self):
        return len(self.items)
