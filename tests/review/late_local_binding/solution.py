def parse(s):
    return [int(x) for x in s.split()]
def total(xs):
    return sum(xs)
