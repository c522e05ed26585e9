def to_roman(n: int) -> str:
    """Return the Roman numeral for n, 1 <= n <= 3999; raise ValueError otherwise."""
    raise NotImplementedError


def from_roman(numeral: str) -> int:
    """Return the integer value of a valid uppercase Roman numeral."""
    raise NotImplementedError
