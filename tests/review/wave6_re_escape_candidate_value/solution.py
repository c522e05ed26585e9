PREFIX = "v1.2+"


def tag(name):
    return PREFIX + name
