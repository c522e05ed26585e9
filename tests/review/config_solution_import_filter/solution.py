import warnings


class StrictWarning(UserWarning):
    pass


def parse(text):
    if text.startswith(" "):
        warnings.warn("leading space", StrictWarning)
    return int(text)
