import functools

def make_counter(start=0):
    n = start
    def step():
        nonlocal n
        n += 1
        return n
    return step

class Widget:
    created = 0
    def __init__(self):
        Widget.created += 1
        self.id = Widget.created

@functools.lru_cache(maxsize=None)
def interned(name):
    return [name]
