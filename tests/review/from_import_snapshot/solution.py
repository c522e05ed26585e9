COUNT = 0
def incr():
    global COUNT
    COUNT += 1
    return COUNT
