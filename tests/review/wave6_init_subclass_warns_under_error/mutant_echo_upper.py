REGISTRY = {}


class Plugin:
    name = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name:
            REGISTRY[cls.name] = cls

    def run(self, text):
        raise NotImplementedError


class Echo(Plugin):
    name = "echo"

    def run(self, text):
        return text.upper()


def available():
    return sorted(REGISTRY)


def apply(name, text):
    return REGISTRY[name]().run(text)
