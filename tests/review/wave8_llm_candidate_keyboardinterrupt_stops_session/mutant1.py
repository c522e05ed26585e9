def parse(s):
    raise KeyboardInterrupt
def fmt(n):
    return str(n)
