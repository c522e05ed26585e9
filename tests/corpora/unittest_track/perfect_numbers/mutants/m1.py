def classify(number):
    if number < 1:
        raise ValueError("Classification is only possible for positive integers.")
    total = sum(d for d in range(1, number + 1) if number % d == 0)
    if total == number:
        return "perfect"
    return "abundant" if total > number else "deficient"
