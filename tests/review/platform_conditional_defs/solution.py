def sep():
    return "/"
