import os

HERE = os.path.dirname(os.path.abspath(__file__))


def first_line(name):
    with open(os.path.join(HERE, name)) as f:
        return f.readline().strip()
