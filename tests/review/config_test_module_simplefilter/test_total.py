import warnings

from solution import total

# runs while pytest imports the file; pytest restores the filters when collection ends
warnings.simplefilter("ignore", FutureWarning)


def test_total():
    assert total([1, 2]) == 3
