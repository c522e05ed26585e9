LIMIT = 10
def bump():
    global LIMIT
    LIMIT += 1
def double(n):
    return 2 * n
