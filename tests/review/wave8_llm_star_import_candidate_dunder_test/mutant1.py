__all__ = ["add", "__test__"]
__test__ = False

def add(a, b):
    return a + b
