def primes(limit):
    marked = [False] * (limit + 1)
    found = []
    for n in range(2, limit + 1):
        if not marked[n]:
            found.append(n)
            for multiple in range(n * n, limit + 1, n):
                marked[multiple] = True
    return found
