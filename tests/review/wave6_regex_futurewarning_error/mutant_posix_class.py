WORD_PATTERN = r"[[:lower:]]+"


def is_word(text):
    return text.isalpha() and text.islower()
