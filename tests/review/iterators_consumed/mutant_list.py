def evens(n):
    return [i for i in range(n) if i % 2 == 0]
def pairs(xs):
    return list(zip(xs, xs[1:]))
