def is_match(text: str, pattern: str) -> bool:
    """Return True if pattern matches all of text.

    '?' matches any single character and '*' matches any sequence, including
    the empty one.
    """
    raise NotImplementedError
