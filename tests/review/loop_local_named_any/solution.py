class Pool:
    def __init__(self, names):
        self.free = list(names)
        self.known = set(names)
        self.busy = []

    def checkout(self):
        name = self.free.pop(0)
        self.busy.append(name)
        return name

    def is_known(self, name):
        return name in self.known

    def is_free(self, name):
        return name in self.free
