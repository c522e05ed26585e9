def fix(x):
    return x + 1
