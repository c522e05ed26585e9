def is_palindrome(word):
    w = word.lower()
    return w == w[::-1]
