EARTH_YEAR = 31557600
RATIOS = {"earth": 1.0, "mercury": 0.2408467, "venus": 0.61519726, "mars": 1.8808158,
          "jupiter": 11.862615, "saturn": 29.447498, "uranus": 84.016846, "neptune": 164.79132}


class SpaceAge:
    def __init__(self, seconds):
        self.seconds = seconds

    def _on(self, planet):
        return round(self.seconds / EARTH_YEAR / RATIOS[planet], 2)

    def on_earth(self):
        return self._on("earth")

    def on_mercury(self):
        return self._on("mercury")

    def on_venus(self):
        return self._on("venus")

    def on_mars(self):
        return self._on("mars")

    def on_jupiter(self):
        return self._on("jupiter")

    def on_saturn(self):
        return self._on("saturn")
