def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i
def pairs(xs):
    return zip(xs, xs[1:])
