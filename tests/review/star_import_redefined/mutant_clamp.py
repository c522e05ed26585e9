LIMIT = 10
def clamp(x):
    return x
