def dedent_lines(s):
    return [l.strip() for l in s.strip().splitlines()]
