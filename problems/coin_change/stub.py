def min_coins(coins: list[int], amount: int) -> int:
    """Return the fewest coins (reuse allowed) summing to amount, or -1 if impossible."""
    raise NotImplementedError
