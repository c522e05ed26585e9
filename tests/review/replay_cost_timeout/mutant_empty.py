import time

class Index:
    def __init__(self):
        self.items = []
    def build(self, n):
        time.sleep(1.1)
        return self
    def size(self):
        return len(self.items)
