def double(x):
    return 2 * x


def tokens(text):
    return text.split("-")
