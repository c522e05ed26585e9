def add(a, b):
    return a - b


def sign(x):
    return (x > 0) - (x < 0)
