_FORMATTERS = {}


def register(name, cls):
    _FORMATTERS[name] = cls


def render(name, value):
    return _FORMATTERS[name]().format(value)
