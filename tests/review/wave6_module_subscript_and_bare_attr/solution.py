__version__ = "1.0"

PRIMES = [2, 3, 5, 7, 11]


def is_prime(n):
    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))
