import warnings


def old_total(xs):
    warnings.warn("use total()", DeprecationWarning, stacklevel=2)
    return sum(xs)


def total(xs):
    return sum(xs)


def report(xs):
    # calls its own deprecated helper: the warning is attributed to this module (ignored)
    return f"total={old_total(xs)}"
