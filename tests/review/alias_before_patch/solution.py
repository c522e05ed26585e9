def helper():
    return 1
def api():
    return helper() + 1
