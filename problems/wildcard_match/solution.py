def is_match(text: str, pattern: str) -> bool:
    """Return True if pattern matches all of text.

    '?' matches any single character and '*' matches any sequence, including
    the empty one.
    """
    # matches[j] is True when pattern[:j] matches the text read so far.
    matches = [True] + [False] * len(pattern)
    for j, p in enumerate(pattern, start=1):
        matches[j] = matches[j - 1] and p == "*"
    for ch in text:
        row = [False] * (len(pattern) + 1)
        for j, p in enumerate(pattern, start=1):
            if p == "*":
                row[j] = row[j - 1] or matches[j]  # star takes nothing, or one more char
            elif p == "?" or p == ch:
                row[j] = matches[j - 1]
        matches = row
    return matches[-1]
