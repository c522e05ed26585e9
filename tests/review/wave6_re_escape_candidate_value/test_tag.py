import re

import pytest

import solution

PATTERN = re.escape(solution.PREFIX)


@pytest.mark.parametrize("name", ["core", "extra"])
def test_tag(name):
    assert solution.tag(name) == "v1.2+" + name


def test_pattern_matches():
    assert re.match(PATTERN, solution.tag("x"))
