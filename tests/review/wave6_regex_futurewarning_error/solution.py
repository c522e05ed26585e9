WORD_PATTERN = r"[a-z]+"


def is_word(text):
    return text.isalpha() and text.islower()
