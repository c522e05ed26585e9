cache = {}
def put(k, v):
    cache[k] = v
def reset():
    global cache
    cache = {}
