__all__ = ["area"]
def area(w, h):
    return w * h
def perimeter(w, h):
    return 2 * (w + h)
def _half(x):
    return x / 2
