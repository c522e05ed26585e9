from solution import square


def test_plain():
    assert square(3) == 9


def test_generator_style():
    assert square(2) == 4
    yield square(4)


async def test_async():
    assert square(5) == 25
