SOUNDS = ((3, "Pling"), (5, "Plang"), (7, "Plong"))


def convert(number):
    out = "".join(sound for factor, sound in SOUNDS if number % factor == 0)
    return out or str(number)
