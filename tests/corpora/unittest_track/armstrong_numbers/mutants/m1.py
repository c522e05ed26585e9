def is_armstrong_number(number):
    return number == sum(int(d) ** 3 for d in str(number))
