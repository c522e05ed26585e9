def normalise(word):
    return word.strip().lower()
