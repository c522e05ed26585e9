REG = []
def register(x):
    return 1
