class Bag:
    def __init__(self):
        self.items = []
    def add(self, x):
        self.items.append(x)
        return self
