import warnings
def old_total(xs):
    warnings.warn("use total()", DeprecationWarning, stacklevel=2)
    return sum(xs)
def total(xs):
    return sum(xs)
