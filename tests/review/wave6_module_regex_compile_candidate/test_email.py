import re

import solution

EMAIL = re.compile(solution.EMAIL_PATTERN)  # compiled once for the whole module


def test_pattern_accepts_simple_address():
    assert EMAIL.match("ann@example.org")


def test_normalize():
    assert solution.normalize("  Ann@Example.ORG ") == "ann@example.org"


def test_is_valid():
    assert solution.is_valid("bob@site.io")
