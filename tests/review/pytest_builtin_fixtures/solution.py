import os
def greet(name):
    print(f"hi {name}")
    return len(name)
def home():
    return os.environ.get("APP_HOME", "/")
def save(path, text):
    with open(path, "w") as f:
        f.write(text)
def load(path):
    with open(path) as f:
        return f.read()
def ratio(a, b):
    return a / b
