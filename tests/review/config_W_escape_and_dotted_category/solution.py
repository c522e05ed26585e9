import warnings


class StrictWarning(UserWarning):
    pass


def old_total(xs):
    warnings.warn("use total() [v2] instead", DeprecationWarning)
    return sum(xs)


def total(xs):
    warnings.warn("use total( [v2]", DeprecationWarning)  # does not match the escaped message
    return sum(xs)


def parse(text):
    return int(text)
