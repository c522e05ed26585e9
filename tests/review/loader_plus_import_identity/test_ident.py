import importlib.util
import pathlib
from solution import Thing


def _load_solution():
    path = pathlib.Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution_fresh", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_fresh_load_is_a_different_class():
    obj = _load_solution().make()
    assert not isinstance(obj, Thing)


def test_same_import():
    assert isinstance(_load_solution().make(), _load_solution().Thing) is False
