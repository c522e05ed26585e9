import pytest
from solution import legacy_table, lookup

pytestmark = pytest.mark.filterwarnings("error")

EXPECTED = legacy_table()  # warns at import, where the mark does not apply: collected fine


def test_lookup():
    assert lookup("a") == 1
