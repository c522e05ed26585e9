def reverse(text):
    return text
