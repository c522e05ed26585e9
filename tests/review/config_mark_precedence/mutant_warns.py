import warnings


def total(xs):
    warnings.warn("total() will change", UserWarning)
    return sum(xs)
