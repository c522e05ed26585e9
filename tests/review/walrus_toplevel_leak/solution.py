best = 0
def score(v):
    global best
    best = max(best, v)
    return best
def reset():
    global best
    best = 0
