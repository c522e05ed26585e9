import solution


class Shout(solution.Plugin):
    name = "shout"

    def run(self, text):
        return text.upper() + "!"


def test_available():
    assert solution.available() == ["echo", "shout"]


def test_apply_shout():
    assert solution.apply("shout", "hi") == "HI!"


def test_apply_echo():
    assert solution.apply("echo", "hi") == "hi"
