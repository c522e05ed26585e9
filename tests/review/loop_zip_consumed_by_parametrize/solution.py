_VALUES = [("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90), ("L", 50),
           ("XL", 40), ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1)]


def to_roman(n):
    out = []
    for sym, val in _VALUES:
        while n >= val:
            out.append(sym)
            n -= val
    return "".join(out)


def from_roman(s):
    total = 0
    i = 0
    for sym, val in _VALUES:
        while s.startswith(sym, i):
            total += val
            i += len(sym)
    return total
