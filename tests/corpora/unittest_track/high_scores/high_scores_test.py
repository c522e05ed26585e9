import unittest

from high_scores import (
    HighScores,
)


class HighScoresTest(unittest.TestCase):
    def test_list_of_scores(self):
        scores = [30, 50, 20, 70]
        expected = [30, 50, 20, 70]
        self.assertEqual(HighScores(scores).scores, expected)

    def test_latest_score(self):
        scores = [100, 0, 90, 30]
        self.assertEqual(HighScores(scores).latest(), 30)

    def test_personal_best(self):
        scores = [40, 100, 70]
        self.assertEqual(HighScores(scores).personal_best(), 100)

    def test_personal_top_three_from_a_list_of_scores(self):
        scores = [10, 30, 90, 30, 100, 20, 10, 0, 30, 40, 40, 70, 70]
        self.assertEqual(HighScores(scores).personal_top_three(), [100, 90, 70])

    def test_personal_top_when_there_is_only_one(self):
        self.assertEqual(HighScores([40]).personal_top_three(), [40])

    def test_latest_score_after_personal_top_scores(self):
        scores = [70, 50, 20, 30]
        highscores = HighScores(scores)
        highscores.personal_top_three()
        self.assertEqual(highscores.latest(), 30)

    def test_scores_after_personal_best(self):
        scores = [20, 70, 15, 25, 30]
        highscores = HighScores(scores)
        highscores.personal_best()
        self.assertEqual(highscores.scores, [20, 70, 15, 25, 30])
