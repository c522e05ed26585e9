import warnings


def table():
    return {"a": 1, "b": 2}


def legacy_table():
    warnings.warn("legacy_table() is deprecated", DeprecationWarning)
    return table()


def lookup(key):
    return table()[key]
