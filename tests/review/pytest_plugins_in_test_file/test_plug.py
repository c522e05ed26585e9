from solution import fetch

pytest_plugins = ["myplugin"]


def test_network_fetch():
    assert fetch("a") == "A"


def test_local():
    assert fetch("a") == "A"
