API_VERSION = 1
def area(w, h):
    return w * h
