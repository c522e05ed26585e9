API_VERSION = 2
def area(w, h):
    return w * h
