class Bag:
    def __init__(self):
        self.items = []
    def add(self, x):
        return self
