import warnings


def old_total(xs):
    return sum(xs)


def deprecations(fn, *args):
    with warnings.catch_warnings(record=True) as log:
        fn(*args)
    return [str(w.message) for w in log if issubclass(w.category, DeprecationWarning)]
