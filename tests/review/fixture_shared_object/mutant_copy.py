class Cart:
    def __init__(self, items):
        self.items = list(items)
    def add(self, x):
        self.items.append(x)
