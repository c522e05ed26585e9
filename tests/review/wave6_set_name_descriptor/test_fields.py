from solution import Field, field_names

TITLE = Field("untitled")
PAGES = Field(0)


class Book:
    title = TITLE
    pages = PAGES


def test_names():
    assert field_names(TITLE, PAGES) == ["title", "pages"]


def test_default():
    assert TITLE.default == "untitled"
