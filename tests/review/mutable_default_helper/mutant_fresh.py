def collect(x, into=None):
    into = [] if into is None else into
    into.append(x)
    return into
