def parse(s):
    return [int(p) for p in s.split(",") if p][::-1]

def filter(items, limit):
    return [i for i in items if i < limit]
