import pytest

from solution import countdown, double, pop

pytestmark = pytest.mark.filterwarnings("default")

SIZES = [1, 2]
SIZES.append(3)
LIMIT = 3


@pytest.fixture
def n(request):
    return request.param - 3


@pytest.fixture
def rows():
    return [1, 2]


@pytest.mark.parametrize("n", [3], indirect=True)
def test_indirect_param_may_be_zero(n):
    for i in range(n):
        assert double(i) == 2 * i


class TestOverride:
    @pytest.fixture
    def rows(self):
        return []

    def test_class_fixture_wins(self, rows):
        for r in rows:
            assert double(r) == 2 * r


@pytest.mark.parametrize("mode", ["fast", "slow"])
@pytest.mark.parametrize("stack", [[1, 2, 3]])
def test_stacked_cases_share_the_list(stack, mode):
    for expected in [3, 2, 1]:
        assert pop(stack) == expected


def test_appended_constant():
    for s in SIZES:
        assert double(s) == 2 * s


def test_range_of_constant():
    for i in range(LIMIT):
        assert double(i) == 2 * i


def test_generator_iterable():
    got = []
    for k in countdown(3):
        got.append(double(k))
    assert got == [6, 4, 2]


def test_next_raises_stopiteration_in_body():
    it = iter([1])
    for x in [1, 2]:
        assert next(it) == x


@pytest.mark.parametrize("size", [0, 2, -1])
def test_param_sizes(size):
    for i in range(size):
        assert double(i) == 2 * i
