from collections import Counter


def top_k_words(words: list[str], k: int) -> list[str]:
    """Return the k most frequent words, by count descending then alphabetically."""
    counts = Counter(words)
    ranked = sorted(counts, key=lambda word: (-counts[word], word))
    return ranked[:k]
