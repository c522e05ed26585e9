def rebase(input_base, digits, output_base):
    if input_base < 2:
        raise ValueError("input base must be >= 2")
    value = 0
    for digit in digits:
        value = value * input_base + digit
    out = []
    while value:
        value, digit = divmod(value, output_base)
        out.append(digit)
    return out[::-1] or [0]
