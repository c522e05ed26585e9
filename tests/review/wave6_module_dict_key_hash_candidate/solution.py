import enum


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


__version__ = 1


def mix(a, b):
    return "yellow" if {a, b} == {Color.RED, Color.GREEN} else a.value
