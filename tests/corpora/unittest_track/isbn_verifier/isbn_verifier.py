def is_valid(isbn):
    chars = isbn.replace("-", "")
    if len(chars) != 10:
        return False
    total = 0
    for i, c in enumerate(chars):
        if c == "X" and i == 9:
            value = 10
        elif c.isdigit():
            value = int(c)
        else:
            return False
        total += value * (10 - i)
    return total % 11 == 0
