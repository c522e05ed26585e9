import pytest
from solution import greet, home, save, load, ratio


def test_capsys(capsys):
    assert greet("bo") == 2
    assert capsys.readouterr().out == "hi bo\n"


def test_env(monkeypatch):
    monkeypatch.setenv("APP_HOME", "/srv")
    assert home() == "/srv"


def test_tmp(tmp_path):
    p = tmp_path / "a.txt"
    save(p, "x")
    assert load(p) == "x"


def test_approx():
    assert ratio(1, 3) == pytest.approx(0.3333, rel=1e-3)
