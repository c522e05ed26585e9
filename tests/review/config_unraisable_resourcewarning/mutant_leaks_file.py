import os

HERE = os.path.dirname(os.path.abspath(__file__))


def first_line(name):
    return open(os.path.join(HERE, name)).readline().strip()  # never closed: ResourceWarning
