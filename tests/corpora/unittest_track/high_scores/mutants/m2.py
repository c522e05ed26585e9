class HighScores:
    def __init__(self, scores):
        self.scores = scores

    def latest(self):
        return max(self.scores)

    def personal_best(self):
        self.scores.sort()
        return self.scores[-1]

    def personal_top_three(self):
        return sorted(self.scores)[-3:][::-1]
