def damerau_levenshtein(a: str, b: str) -> int:
    """Return the optimal-string-alignment edit distance between a and b.

    Insertions, deletions, substitutions and swaps of two adjacent characters
    each cost 1; no substring is edited more than once.
    """
    rows, cols = len(a) + 1, len(b) + 1
    d = [[0] * cols for _ in range(rows)]
    for i in range(rows):
        d[i][0] = i
    for j in range(cols):
        d[0][j] = j
    for i in range(1, rows):
        for j in range(1, cols):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i][j] = min(
                d[i - 1][j] + 1,         # delete a[i-1]
                d[i][j - 1] + 1,         # insert b[j-1]
                d[i - 1][j - 1] + cost,  # keep or substitute
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)  # adjacent swap
    return d[-1][-1]
