def limit_for(n):
    if n <= 0:
        raise ValueError("n must be positive")
    return n * 10
CALLS = []
def probe(x):
    CALLS.append(x)
    return x
