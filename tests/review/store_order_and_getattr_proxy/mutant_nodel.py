LOG = []
def key():
    LOG.append("key")
    return "k"
def value():
    LOG.append("value")
    return 1

class Config:
    def __init__(self):
        self._d = {}
    def __getattr__(self, name):
        return getattr(self._d, name)
    def __setitem__(self, k, v):
        self._d[k] = v
    def __contains__(self, k):
        return k in self._d
