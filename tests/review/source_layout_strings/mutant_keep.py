def dedent_lines(s):
    return [l for l in s.strip().splitlines()]
