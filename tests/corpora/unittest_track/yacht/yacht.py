from collections import Counter

YACHT = "yacht"
ONES, TWOS, THREES, FOURS, FIVES, SIXES = 1, 2, 3, 4, 5, 6
FULL_HOUSE = "full_house"
FOUR_OF_A_KIND = "four_of_a_kind"
LITTLE_STRAIGHT = "little_straight"
BIG_STRAIGHT = "big_straight"
CHOICE = "choice"


def score(dice, category):
    counts = Counter(dice)
    if category in (ONES, TWOS, THREES, FOURS, FIVES, SIXES):
        return category * counts[category]
    if category == YACHT:
        return 50 if len(counts) == 1 else 0
    if category == FULL_HOUSE:
        return sum(dice) if sorted(counts.values()) == [2, 3] else 0
    if category == FOUR_OF_A_KIND:
        face, n = counts.most_common(1)[0]
        return 4 * face if n >= 4 else 0
    if category == LITTLE_STRAIGHT:
        return 30 if sorted(dice) == [1, 2, 3, 4, 5] else 0
    if category == BIG_STRAIGHT:
        return 30 if sorted(dice) == [2, 3, 4, 5, 6] else 0
    if category == CHOICE:
        return sum(dice)
    raise ValueError("unknown category")
