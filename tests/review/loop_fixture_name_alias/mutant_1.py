def normalise(word):
    return word.lower()
