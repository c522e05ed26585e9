class Account:
    def __init__(self, balance=0):
        self.balance = balance
        self.log = []
    def withdraw(self, amount):
        if amount > self.balance:
            self.log.append("denied")
            raise ValueError("insufficient")
        self.balance -= amount
    def __enter__(self):
        self.log.append("open")
        return self
    def __exit__(self, *exc):
        self.log.append("close")
        return False
