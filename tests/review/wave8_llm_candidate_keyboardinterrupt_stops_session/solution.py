def parse(s):
    return int(s)
def fmt(n):
    return str(n)
