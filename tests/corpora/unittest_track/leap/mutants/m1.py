def leap_year(year):
    return year % 4 == 0
