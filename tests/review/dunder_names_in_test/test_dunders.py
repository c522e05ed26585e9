from solution import name_of


def test_module_name():
    assert name_of(__name__) == "test_dunders"


def test_file():
    assert __file__.endswith("test_dunders.py")


def test_doc():
    assert __doc__ is None


def test_globals_has_helper():
    assert "name_of" in globals()
    assert "test_doc" in globals()
