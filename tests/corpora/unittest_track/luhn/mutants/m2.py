class Luhn:
    def __init__(self, card_num):
        self.digits = [int(c) for c in card_num if c.isdigit()]
        self.bad = any(not (c.isdigit() or c == " ") for c in card_num)

    def valid(self):
        if len(self.digits) < 2 or self.bad:
            return False
        total = 0
        for i, d in enumerate(reversed(self.digits)):
            if i % 2 == 1:
                d = d * 2 - 9 if d > 4 else d * 2
            total += d
        self.digits.append(1)
        return total % 10 == 0
