import importlib.util
import pathlib


def _load_solution():
    path = pathlib.Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def check(value):
    """Test-side helper: value is a clean lowercase word."""
    return value.isalpha() and value.islower()


def test_solution_check():
    assert _load_solution().check(3)


def test_normalize_with_helper():
    assert check(_load_solution().normalize("  Hello "))
