def greet(name):
    return "hi " + name
def square(x):
    return x * x
