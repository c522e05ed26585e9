def classify(number):
    if number < 0:
        raise ValueError("Classification is only possible for natural numbers.")
    total = sum(d for d in range(1, number // 2 + 1) if number % d == 0) if number > 1 else 0
    if total == number:
        return "perfect"
    return "abundant" if total >= number else "deficient"
