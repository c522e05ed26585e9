YACHT = 0
ONES, TWOS, THREES, FOURS, FIVES, SIXES = 1, 2, 3, 4, 5, 6
FULL_HOUSE = 7
FOUR_OF_A_KIND = 8
LITTLE_STRAIGHT = 9
BIG_STRAIGHT = 10
CHOICE = 11


def score(dice, category):
    if category <= 6:
        return category * dice.count(category)
    if category == YACHT:
        return 50
    return sum(dice)
