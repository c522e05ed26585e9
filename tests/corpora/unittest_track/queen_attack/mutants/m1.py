class Queen:
    def __init__(self, row, column):
        if not 0 <= row <= 7:
            raise ValueError("row not on board")
        if not 0 <= column <= 7:
            raise ValueError("column not on board")
        self.row = row
        self.column = column

    def can_attack(self, another_queen):
        return (self.row == another_queen.row or self.column == another_queen.column
                or abs(self.row - another_queen.row) == abs(self.column - another_queen.column))
