def rebase(input_base, digits, output_base):
    if input_base < 2:
        raise ValueError("input base must be >= 2")
    if output_base < 2:
        raise ValueError("output base must be >= 2")
    value = 0
    for digit in digits:
        if not 0 <= digit < input_base:
            raise ValueError("all digits must satisfy 0 <= d < input base")
        value = value * input_base + digit
    out = []
    while value:
        value, digit = divmod(value, output_base)
        out.append(digit)
    return out[::-1]
