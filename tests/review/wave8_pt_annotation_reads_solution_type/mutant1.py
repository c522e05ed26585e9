def parse(s):
    return [int(x) for x in s.split(",")] if s else []
