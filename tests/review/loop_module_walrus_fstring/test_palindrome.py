from solution import is_palindrome

WORDS = ["Level", "Rotor", "Kayak"]
# debugging print left in: it also rebinds WORDS (to the words longer than 5: none)
print(f"{len(WORDS := [w for w in WORDS if len(w) > 5])} long palindromes")


def test_palindromes():
    for w in WORDS:
        assert is_palindrome(w)


def test_plain():
    assert is_palindrome("Abba")


def test_loop_literal():
    for w in ["Abba", "Noon"]:
        assert is_palindrome(w)
