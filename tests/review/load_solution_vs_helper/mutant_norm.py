def check(x):
    return x > 0
def normalize(s):
    return s.strip()
