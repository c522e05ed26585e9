import threading


class Handle:
    def __init__(self, n):
        self.n = n

    def __del__(self):
        raise RuntimeError("close failed")


def compute(n):
    return Handle(n).n * 2


def background(n):
    out = []
    t = threading.Thread(target=lambda: out.append(n + 1))
    t.start()
    t.join()
    return out[0]
