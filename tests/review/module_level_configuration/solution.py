CONFIG = {"strict": False}
class Widget:
    default_size = 1
    def __init__(self):
        self.size = Widget.default_size
def check(x):
    if CONFIG["strict"] and x < 0:
        raise ValueError(x)
    return abs(x)
