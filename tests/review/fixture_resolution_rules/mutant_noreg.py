ORDER = []
def register(name):
    return name
def scaled(n):
    return n * 10
