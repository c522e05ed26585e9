def fact_rec(n):
    return 1 if n == 0 else n * fact_rec(n - 1)

def fact_iter(n):
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r
