ITEMS = ["eggs", "peanuts", "shellfish", "strawberries", "tomatoes", "chocolate", "pollen", "cats", "dogs"]


class Allergies:
    def __init__(self, score):
        self.score = score

    def allergic_to(self, item):
        return bool(self.score & (1 << ITEMS.index(item)))

    @property
    def lst(self):
        return [item for item in ITEMS if self.allergic_to(item)]
