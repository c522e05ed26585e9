SYMBOLS = {}


def register(symbol, func):
    SYMBOLS[symbol] = func


def evaluate(a, symbol, b):
    return SYMBOLS[symbol](a, b)
