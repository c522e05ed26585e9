COUNT = 1
def incr():
    return COUNT
