import warnings


def old_total(xs):
    warnings.warn("use total()", DeprecationWarning)
    return sum(xs)


def deprecations(fn, *args):
    """The deprecation messages a call emits (as the outer filters let them through)."""
    with warnings.catch_warnings(record=True) as log:
        fn(*args)
    return [str(w.message) for w in log if issubclass(w.category, DeprecationWarning)]
