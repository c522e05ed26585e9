from solution import Index


def test_rebuilds():
    idx = Index()
    idx.build(10)
    assert idx.size() == 10
    idx.build(20)
    assert idx.size() == 20
    idx.build(30)
    assert idx.size() == 30
