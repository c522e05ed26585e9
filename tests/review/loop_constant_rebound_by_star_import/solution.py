WORDS = ["apple", "banana", "pear"]


def is_word(word, words=WORDS):
    return word.strip().lower() in words


def suggest(prefix):
    return [w for w in WORDS if w.startswith(prefix.lower())]
