def combine(a, b):
    return f"{a}{b}"
