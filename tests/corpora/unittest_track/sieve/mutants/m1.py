def primes(limit):
    return [n for n in range(2, limit) if all(n % d for d in range(2, n))]
