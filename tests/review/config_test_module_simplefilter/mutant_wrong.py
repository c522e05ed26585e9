import warnings


def total(xs):
    warnings.warn("total() will change", FutureWarning)
    return sum(xs) + 1
