import re

EMAIL_PATTERN = r"^[a-z0-9._]+@[a-z0-9-]+\.[a-z]{2,}$"


def normalize(address):
    return address.strip().lower()


def is_valid(address):
    return re.match(EMAIL_PATTERN, normalize(address)) is not None
