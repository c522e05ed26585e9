def word_ladder(begin: str, end: str, words: list[str]) -> int:
    """Return the number of words in the shortest ladder from begin to end.

    Each step changes exactly one letter, and every word after begin must be
    in words. The count includes begin and end. Return 0 if there is no ladder
    and 1 if begin equals end.
    """
    raise NotImplementedError
