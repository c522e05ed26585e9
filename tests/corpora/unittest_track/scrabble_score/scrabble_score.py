VALUES = {}
for letters, value in (("AEIOULNRST", 1), ("DG", 2), ("BCMP", 3), ("FHVWY", 4), ("K", 5), ("JX", 8), ("QZ", 10)):
    for letter in letters:
        VALUES[letter] = value


def score(word):
    return sum(VALUES[c] for c in word.upper())
