def parse(s):
    return [int(p) for p in s.split(",") if p]

def filter(items, limit):
    """Keep items below limit."""
    return [i for i in items if i < limit]
