def convert(number):
    out = ""
    if number % 3 == 0:
        out += "Pling"
    elif number % 5 == 0:
        out += "Plang"
    elif number % 7 == 0:
        out += "Plong"
    return out or str(number)
