WORDS = ["level", "noon", "civic", "robot"]


def is_palindrome(word):
    return len(word) > 0
