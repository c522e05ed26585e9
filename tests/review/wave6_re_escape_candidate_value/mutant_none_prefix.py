PREFIX = None


def tag(name):
    return "v1.2+" + name
