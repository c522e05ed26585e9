from solution import STOPWORDS, content_words

STOPWORDS += ["of"]  # this corpus also drops "of"
EXTRA = STOPWORDS[-1]


def test_content_words():
    assert content_words("the end of a story") == ["end", "story"]


def test_extra():
    assert EXTRA == "of"
