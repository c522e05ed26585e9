STATE = {"n": 0}
def bump():
    STATE["n"] += 1
    return STATE["n"]
def reset():
    STATE["n"] = 0
