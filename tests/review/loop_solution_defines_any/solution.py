"""Exercise: re-implement any/all and count_if for lists, without the builtins."""


def any(items):
    for i in range(len(items)):
        if items[i]:
            return True
    return False


def all(items):
    for i in range(len(items)):
        if not items[i]:
            return False
    return True


def count_if(pred, items):
    n = 0
    for x in items:
        if pred(x):
            n += 1
    return n
