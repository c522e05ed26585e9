CALLS = []
def key():
    CALLS.append("key")
    return 0
def amount():
    CALLS.append("amount")
    return 10
