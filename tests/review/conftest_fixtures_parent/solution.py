REG = []
def register(name):
    REG.append(name)
    return len(REG)
