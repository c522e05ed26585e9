def bump():
    pass
def double(n):
    return 2 * n
