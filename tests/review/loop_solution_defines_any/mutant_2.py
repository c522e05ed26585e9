"""Exercise: re-implement any/all and count_if for lists, without the builtins."""


def any(items):
    for x in items:
        return bool(x)  # the classic slip: returns after the first element
    return False


def all(items):
    for i in range(len(items)):
        if not items[i]:
            return False
    return True


def count_if(pred, items):
    n = 0
    for x in items:
        if pred(x) is True:  # callable(len) is True, but a truthy non-bool would be missed
            n += 1
    return n
