import os
def greet(name):
    print(f"hey {name}")
    return len(name)
def home():
    return "/"
def save(path, text):
    with open(path, "w") as f:
        f.write(text.upper())
def load(path):
    with open(path) as f:
        return f.read()
def ratio(a, b):
    return a / b + 1e-3
