def setup_function(function):
    raise RuntimeError("candidate sabotages setup")

def add(a, b):
    return a + b
