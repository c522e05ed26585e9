class PhoneNumber:
    def __init__(self, number):
        if any(c.isalpha() for c in number):
            raise ValueError("letters not permitted")
        digits = "".join(c for c in number if c.isdigit())
        if len(digits) == 11:
            if digits[0] != "1":
                raise ValueError("11 digits must start with 1")
            digits = digits[1:]
        elif len(digits) < 10:
            raise ValueError("must not be fewer than 10 digits")
        if digits[0] == "0":
            raise ValueError("area code cannot start with zero")
        self.number = digits
        self.area_code = digits[:3]

    def pretty(self):
        return f"({self.area_code}) {self.number[3:6]}-{self.number[6:]}"
