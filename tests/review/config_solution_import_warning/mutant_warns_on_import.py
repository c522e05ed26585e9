import warnings

warnings.warn("this module is deprecated", DeprecationWarning)


def add(a, b):
    return a + b
