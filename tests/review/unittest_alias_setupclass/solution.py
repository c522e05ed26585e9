REG = []
def register(x):
    REG.append(x)
    return len(REG)
