from solution import scale

FACTOR = 2


def test_scale():
    assert scale(3, FACTOR) == 9


FACTOR = 3

LIMITS = {"low": 1}


def test_limits():
    assert scale(LIMITS["low"], 5) == 10


LIMITS.update(low=2)

if True:
    OFFSET = 1
else:
    OFFSET = 100


def test_offset():
    assert scale(OFFSET, 4) == 4


for WIDTH in (1, 2):
    pass


def test_width():
    assert scale(WIDTH, 2) == 4
