_REG = []
def register(x):
    _REG.append(x)
def count():
    return len(_REG)
