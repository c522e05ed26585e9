import unittest

from allergies import (
    Allergies,
)


class AllergiesTest(unittest.TestCase):
    def test_eggs_not_allergic_to_anything(self):
        self.assertIs(Allergies(0).allergic_to("eggs"), False)

    def test_allergic_only_to_eggs(self):
        self.assertIs(Allergies(1).allergic_to("eggs"), True)

    def test_allergic_to_eggs_and_something_else(self):
        self.assertIs(Allergies(3).allergic_to("eggs"), True)

    def test_peanuts_allergic_to_everything(self):
        self.assertIs(Allergies(255).allergic_to("peanuts"), True)

    def test_cats_not_allergic_to_anything(self):
        self.assertIs(Allergies(0).allergic_to("cats"), False)

    def test_no_allergies(self):
        self.assertEqual(Allergies(0).lst, [])

    def test_just_eggs(self):
        self.assertEqual(Allergies(1).lst, ["eggs"])

    def test_eggs_and_peanuts(self):
        self.assertCountEqual(Allergies(3).lst, ["eggs", "peanuts"])

    def test_lots_of_stuff(self):
        allergies = Allergies(248)
        self.assertIn("cats", allergies.lst)
        self.assertNotIn("eggs", allergies.lst)
        self.assertCountEqual(allergies.lst, ["strawberries", "tomatoes", "chocolate", "pollen", "cats"])

    def test_no_allergen_score_parts(self):
        self.assertCountEqual(
            Allergies(509).lst,
            ["eggs", "shellfish", "strawberries", "tomatoes", "chocolate", "pollen", "cats"],
        )

    def test_every_item_for_255(self):
        allergies = Allergies(255)
        for item in ["eggs", "peanuts", "shellfish", "cats"]:
            with self.subTest(item=item):
                self.assertTrue(allergies.allergic_to(item))
