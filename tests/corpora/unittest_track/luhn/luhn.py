class Luhn:
    def __init__(self, card_num):
        self.card_num = card_num.replace(" ", "")

    def valid(self):
        if len(self.card_num) < 2 or not self.card_num.isdigit():
            return False
        total = 0
        for i, c in enumerate(reversed(self.card_num)):
            d = int(c)
            if i % 2 == 1:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        return total % 10 == 0
