def greet(name):
    return "hi " + name.lower()
def square(x):
    return x + x
