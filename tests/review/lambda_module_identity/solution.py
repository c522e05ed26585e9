_PLUGINS = {}


def register(fn):
    """Plugins are grouped by the module that defines them."""
    _PLUGINS.setdefault(fn.__module__, []).append(fn)
    return fn


def owners():
    return sorted(_PLUGINS)
