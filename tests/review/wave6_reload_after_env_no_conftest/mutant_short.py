import os

SEPARATOR = os.environ.get("RULER_SEP", "-")


def ruler(n):
    return SEPARATOR * (n - 1)
