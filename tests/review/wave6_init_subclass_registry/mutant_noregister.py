REGISTRY = {}


class Plugin:
    name = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name and cls.__module__ == __name__:
            REGISTRY[cls.name] = cls

    def run(self, text):
        raise NotImplementedError


class Echo(Plugin):
    name = "echo"

    def run(self, text):
        return text


def available():
    return sorted(REGISTRY)


def apply(name, text):
    return REGISTRY[name]().run(text)
