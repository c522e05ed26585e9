SYMBOLS = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),
    (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
    (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]
VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def to_roman(n: int) -> str:
    """Return the Roman numeral for n, 1 <= n <= 3999; raise ValueError otherwise."""
    if not 1 <= n <= 3999:
        raise ValueError(f"to_roman() needs an integer from 1 to 3999, got {n}")
    parts = []
    for value, symbol in SYMBOLS:
        count, n = divmod(n, value)
        parts.append(symbol * count)
    return "".join(parts)


def from_roman(numeral: str) -> int:
    """Return the integer value of a valid uppercase Roman numeral."""
    total = 0
    for i, ch in enumerate(numeral):
        value = VALUES[ch]
        # A smaller symbol before a larger one is subtracted (the I in IV).
        if i + 1 < len(numeral) and value < VALUES[numeral[i + 1]]:
            total -= value
        else:
            total += value
    return total
