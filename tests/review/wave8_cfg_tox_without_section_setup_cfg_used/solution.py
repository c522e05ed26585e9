import warnings
def add(a, b):
    warnings.warn("add() will become strict", UserWarning)
    return a + b
