import warnings


def scale(xs, k):
    if k == 0:
        warnings.warn("scaling by zero", RuntimeWarning)
    return [x * k for x in xs]
