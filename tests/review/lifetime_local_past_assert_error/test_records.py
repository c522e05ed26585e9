from solution import read_records


def test_close_explicit():
    g = read_records(["a\n", "b\n"])
    assert next(g) == "a"  # pytest passes this; the generator lives on until g.close() below
    g.close()
