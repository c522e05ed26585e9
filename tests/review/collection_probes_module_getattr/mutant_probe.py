PROBES = []


def f(x):
    return x + 1


def __getattr__(name):
    PROBES.append(name)
    raise AttributeError(name)
