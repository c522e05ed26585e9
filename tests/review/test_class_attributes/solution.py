def total(xs):
    return sum(xs)
def add_item(xs, x):
    xs.append(x)
