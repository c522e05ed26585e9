LIMIT = 10
def clamp(x):
    return min(x, LIMIT)
