def three():
    return 3
def grow(xs):
    xs.append(len(xs))
    return xs
