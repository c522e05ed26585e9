import solution


class Quiet(solution.Plugin):
    """Registered under no name: exercises subclassing without registration."""

    def run(self, text):
        return text.lower()


def test_apply_echo():
    assert solution.apply("echo", "hi") == "hi"


def test_available():
    assert solution.available() == ["echo"]
