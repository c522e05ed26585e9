def fact_rec(n):
    return 1 if n == 0 else n * fact_rec(n - 1)
