ORDER = []
def register(name):
    ORDER.append(name)
    return name
def scaled(n):
    return n * 10
