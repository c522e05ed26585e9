def helper():
    return 1
def api():
    return 2
