STATE = {"n": 5}
def bump():
    STATE["n"] += 1
    return STATE["n"]
def reset():
    pass
