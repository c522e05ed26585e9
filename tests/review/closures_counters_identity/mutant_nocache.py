def make_counter(start=0):
    n = start
    def step():
        return n + 1
    return step

class Widget:
    created = 0
    def __init__(self):
        self.id = Widget.created + 1

def interned(name):
    return [name]
