cache = {}
def put(k, v):
    cache[k] = v
def reset():
    cache.clear()
