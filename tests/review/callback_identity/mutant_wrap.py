class Bus:
    def __init__(self):
        self.handlers = []
    def subscribe(self, fn):
        self.handlers.append(lambda e: fn(e))
        return fn
    def emit(self, e):
        return [h(e) for h in self.handlers]
