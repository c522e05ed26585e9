class PhoneNumber:
    def __init__(self, number):
        digits = "".join(c for c in number if c.isdigit())
        if len(digits) == 11 and digits[0] == "1":
            digits = digits[1:]
        if len(digits) != 10:
            raise ValueError("must not be fewer than 10 digits")
        self.number = digits
        self.area_code = digits[:3]

    def pretty(self):
        return f"({self.area_code})-{self.number[3:6]}-{self.number[6:]}"
