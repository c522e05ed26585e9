SYMBOLS = {}


def register(symbol, func):
    pass


def evaluate(a, symbol, b):
    return SYMBOLS[symbol](a, b)
