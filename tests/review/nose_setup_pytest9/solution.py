class Counter:
    def __init__(self):
        self.n = 0
    def hit(self):
        self.n += 1
        return self.n
