from solution import join


def test_crlf():
    x = join(["a",
              "b"])  # comment
    assert x == "a,b"


def test_continuation():
    assert join(["#", "x"]) \
        == "#,x"
