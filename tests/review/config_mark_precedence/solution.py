import warnings


def total(xs):
    return sum(xs)
