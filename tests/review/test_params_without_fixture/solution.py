def parse(s):
    return s.split(",")
LIMIT = 3
