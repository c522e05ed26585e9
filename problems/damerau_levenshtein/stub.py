def damerau_levenshtein(a: str, b: str) -> int:
    """Return the optimal-string-alignment edit distance between a and b.

    Insertions, deletions, substitutions and swaps of two adjacent characters
    each cost 1; no substring is edited more than once.
    """
    raise NotImplementedError
