_n = [0]
def next_id():
    _n[0] += 1
    return _n[0]
def pair(x, y):
    return (x, y)
class Box:
    def __init__(self, v):
        self.v = v
    def minus(self, other):
        return self.v - other
def box():
    return Box(next_id())
def reset():
    _n[0] = 0
