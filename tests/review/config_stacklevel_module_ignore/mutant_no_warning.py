def old_total(xs):
    return sum(xs)


def total(xs):
    return sum(xs)


def report(xs):
    return f"total={old_total(xs)}"
