class Account:
    def __init__(self, balance=0):
        self.balance = balance
        self.log = []
    def withdraw(self, amount):
        if amount > self.balance:
            raise ValueError("insufficient")
        self.balance -= amount
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False
