def reverse(text):
    return " ".join(reversed(text.split(" ")))
