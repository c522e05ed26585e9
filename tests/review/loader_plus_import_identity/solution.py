class Thing:
    pass
def make():
    return Thing()
