class _Prefix(str):
    calls = []

    def translate(self, table):
        _Prefix.calls.append(table)
        return str.translate(self, table)


PREFIX = _Prefix("v1.2+")


def tag(name):
    return PREFIX + name + ("!" if _Prefix.calls else "")
