import pytest

from solution import normalise


@pytest.fixture
def words():
    return ["Apple", "banana"]


# Added later in the pylint style (no redefined-outer-name); the old fixture above was
# never deleted. pytest registers fixtures in dir() order, so this one ("words_fixture"
# sorts after "words") is the `words` every test gets.
@pytest.fixture(name="words")
def words_fixture():
    return [" Apple ", "BANANA\n"]


def test_normalise_each(words):
    for w in words:
        assert normalise(w) == w.strip().lower()


def test_normalise_strips(words):
    for w in words:
        assert normalise(w) == normalise(w).strip()
