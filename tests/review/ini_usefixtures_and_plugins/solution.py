REG = []
MODE = {"strict": False}
def register(x):
    REG.append(x)
    return len(REG)
def check(x):
    if MODE["strict"] and x < 0:
        raise ValueError(x)
    return abs(x)
