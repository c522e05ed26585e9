BOUNDS = (0, 10)


def clamp(x):
    lo, hi = BOUNDS[0], BOUNDS[1]
    return max(lo, min(hi, x))
