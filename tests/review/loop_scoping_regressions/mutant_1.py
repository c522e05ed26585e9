def double(x):
    return x + x if x < 10 else x * 3


def tokens(text):
    return text.split("-")
