def find_anagrams(word, candidates):
    key = sorted(word.lower())
    return [c for c in candidates if c.lower() != word.lower() and sorted(c.lower()) == key]
