def table():
    return {"a": 1, "b": 2}


def legacy_table():
    return table()


def lookup(key):
    return table()[key]
