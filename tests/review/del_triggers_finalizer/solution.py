import weakref

class Handle:
    live = 0
    def __init__(self):
        Handle.live += 1
    def __del__(self):
        Handle.live -= 1

_registry = weakref.WeakValueDictionary()

class Session:
    def __init__(self, name):
        _registry[name] = self

def active():
    return sorted(_registry)
