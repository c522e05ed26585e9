def classify(v):
    return ("num", v) if isinstance(v, int) else ("str", v)
