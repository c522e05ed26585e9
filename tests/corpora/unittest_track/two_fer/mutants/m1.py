def two_fer(name):
    return f"One for {name}, one for me."
