from solution import dedent_lines

TEXT = """
    alpha  # not a comment
    beta \
gamma
"""


def test_triple():
    text = """
        one
        two
    """
    assert dedent_lines(text) == ["one", "two"]


def test_module_text():
    assert dedent_lines(TEXT) == [
        "alpha  # not a comment",  # a real comment
        "beta gamma",
    ]


def test_semicolons(): x = dedent_lines(" a "); assert x == ["a"]
