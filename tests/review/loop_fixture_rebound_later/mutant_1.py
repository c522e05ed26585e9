def area(w, h):
    return w * h if w != h else w + h


def perimeter(w, h):
    return 2 * w + h
