import pytest
from solution import legacy_table, lookup

# marks apply while a test runs, not while pytest imports this file
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

EXPECTED = legacy_table()  # warns at import: an error under the ini's `error`, collection fails


def test_lookup():
    assert lookup("a") == 1
