import enum
import operator

import solution


class Op(enum.Enum):
    ADD = ("+", operator.add)
    MUL = ("*", operator.mul)

    def __init__(self, symbol, func):
        self.symbol = symbol
        solution.register(symbol, func)


def test_add():
    assert solution.evaluate(2, "+", 3) == 5


def test_mul():
    assert solution.evaluate(2, "*", 3) == 6


def test_symbols():
    assert [op.symbol for op in Op] == ["+", "*"]
