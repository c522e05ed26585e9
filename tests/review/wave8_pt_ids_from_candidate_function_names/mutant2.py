import functools

def _fact(n, acc=1):
    return acc if n == 0 else _fact(n - 1, acc * n)

fact_rec = _fact
fact_iter = functools.partial(_fact, acc=1)
