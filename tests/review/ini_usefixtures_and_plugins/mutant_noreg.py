REG = []
MODE = {"strict": False}
def register(x):
    return 1
def check(x):
    return abs(x)
