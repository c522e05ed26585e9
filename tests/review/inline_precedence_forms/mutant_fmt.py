def fmt(t):
    return "%d+%d" % t
def ident(x):
    return x
def negate(b):
    return b
