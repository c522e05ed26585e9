STOPWORDS = ("a", "the")


def content_words(text):
    return [w for w in text.split() if w not in STOPWORDS]
