LIMIT = 10
def clip(x):
    return min(x, LIMIT)
