class Container:
    def __init__(self):
        self.items = []
    def put(self, x):
        self.items.append(x)
    def __len__(self):
        return len(self.items)

Stack = Queue = Container
