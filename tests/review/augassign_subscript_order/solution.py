CALLS = []
def key():
    CALLS.append("key")
    return len(CALLS) - 1
def amount():
    CALLS.append("amount")
    return 10
