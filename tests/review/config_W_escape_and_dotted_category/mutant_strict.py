import warnings


class StrictWarning(UserWarning):
    pass


def old_total(xs):
    return sum(xs)


def total(xs):
    return sum(xs)


def parse(text):
    warnings.warn("lenient", StrictWarning)
    return int(text)
