class Clock:
    def __init__(self, hour, minute):
        self.minutes = (hour * 60 + minute) % (24 * 60)

    def __repr__(self):
        return f"Clock({self.minutes // 60}, {self.minutes % 60})"

    def __str__(self):
        return f"{self.minutes // 60}:{self.minutes % 60}"

    def __add__(self, minutes):
        self.minutes = (self.minutes + minutes) % (24 * 60)
        return self

    def __sub__(self, minutes):
        return Clock(0, self.minutes - minutes)
