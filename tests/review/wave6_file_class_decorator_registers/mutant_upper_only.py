_FORMATTERS = {}


def register(name, cls):
    _FORMATTERS.setdefault(name, cls) if name.isupper() else None


def render(name, value):
    return _FORMATTERS[name]().format(value)
