REG = []
def register(name):
    return len(REG) + 1
