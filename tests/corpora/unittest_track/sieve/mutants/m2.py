def primes(limit):
    return [n for n in range(1, limit + 1) if all(n % d for d in range(2, n))]
