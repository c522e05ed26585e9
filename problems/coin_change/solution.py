def min_coins(coins: list[int], amount: int) -> int:
    """Return the fewest coins (reuse allowed) summing to amount, or -1 if impossible."""
    unreachable = amount + 1  # more coins than any real answer could need
    fewest = [0] + [unreachable] * amount
    for value in range(1, amount + 1):
        for coin in coins:
            if coin <= value and fewest[value - coin] + 1 < fewest[value]:
                fewest[value] = fewest[value - coin] + 1
    return fewest[amount] if fewest[amount] != unreachable else -1
