EARTH_YEAR = 365 * 24 * 3600


class SpaceAge:
    def __init__(self, seconds):
        self.seconds = seconds

    def on_earth(self):
        return round(self.seconds / EARTH_YEAR, 2)

    def on_mercury(self):
        return round(self.seconds / EARTH_YEAR / 0.2408467, 2)

    def on_venus(self):
        return round(self.seconds / EARTH_YEAR / 0.61519726, 2)

    def on_mars(self):
        return round(self.seconds / EARTH_YEAR / 1.8808158, 2)

    def on_jupiter(self):
        return round(self.seconds / EARTH_YEAR / 11.862615, 2)

    def on_saturn(self):
        return round(self.seconds / EARTH_YEAR / 29.447498, 2)
