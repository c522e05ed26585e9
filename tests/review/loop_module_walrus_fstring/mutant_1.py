def is_palindrome(word):
    return word == word[::-1]
