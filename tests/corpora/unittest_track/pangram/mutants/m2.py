def is_pangram(sentence):
    return len({c for c in sentence if c.isalpha()}) >= 26
