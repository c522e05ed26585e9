import warnings


class StrictWarning(UserWarning):
    pass


# the module makes its own warnings errors when imported (pytest restores the filters after collection)
warnings.simplefilter("error", StrictWarning)


def parse(text):
    if text.startswith(" "):
        warnings.warn("leading space", StrictWarning)
    return int(text)
