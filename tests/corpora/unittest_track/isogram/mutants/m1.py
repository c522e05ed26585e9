def is_isogram(string):
    letters = [c for c in string if c.isalpha()]
    return len(letters) == len(set(letters))
