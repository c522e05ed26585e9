import solution


def formatter(cls):
    solution.register(cls.__name__.lower(), cls)
    return cls


@formatter
class Money:
    def format(self, value):
        return f"${value:,.2f}"


@formatter
class Percent:
    def format(self, value):
        return f"{value:.0%}"


def test_money():
    assert solution.render("money", 1234.5) == "$1,234.50"


def test_percent():
    assert solution.render("percent", 0.25) == "25%"
