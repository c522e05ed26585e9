WORDS = ["level", "noon", "civic", "robot"]


def is_palindrome(word):
    return word == word[::-1]
