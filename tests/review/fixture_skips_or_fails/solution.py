FEATURES = {"fast": False}
def speed():
    return 10
