def top_k_words(words: list[str], k: int) -> list[str]:
    """Return the k most frequent words, by count descending then alphabetically."""
    raise NotImplementedError
