import threading


class Handle:
    def __init__(self, n):
        self.n = n

    def __del__(self):
        pass


def compute(n):
    return Handle(n).n * 2


def background(n):
    out = [n + 1]

    def work():
        raise RuntimeError("worker crashed")

    t = threading.Thread(target=work)
    t.start()
    t.join()
    return out[0]
