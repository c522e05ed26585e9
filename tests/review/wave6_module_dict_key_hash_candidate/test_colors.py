from solution import Color, mix

SHORT = {Color.RED: "r", Color.GREEN: "g"}
BANNER = f"{Color.RED.value:>6}"


def test_mix():
    assert mix(Color.RED, Color.GREEN) == "yellow"


def test_same():
    assert mix(Color.RED, Color.RED) == "red"
