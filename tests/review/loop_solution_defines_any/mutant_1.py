"""Exercise: re-implement any/all and count_if for lists, without the builtins."""


def any(items):
    # takes any iterable; but forgets the truth test: "any" element at all
    for _ in items:
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
