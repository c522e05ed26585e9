import os
PATH = "events.log"
def log_event(e):
    with open(PATH, "a") as f:
        f.write(e + "\n")
def count():
    if not os.path.exists(PATH):
        return 0
    with open(PATH) as f:
        return len(f.read().splitlines())
def clear():
    if os.path.exists(PATH):
        os.remove(PATH)
