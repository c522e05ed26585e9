def version_tuple(s):
    return tuple(int(p) for p in s.split("."))
