from collections import deque
from string import ascii_lowercase


def word_ladder(begin: str, end: str, words: list[str]) -> int:
    """Return the number of words in the shortest ladder from begin to end.

    Each step changes exactly one letter, and every word after begin must be
    in words. The count includes begin and end. Return 0 if there is no ladder
    and 1 if begin equals end.
    """
    if begin == end:
        return 1
    allowed = set(words)
    if end not in allowed:
        return 0

    queue = deque([(begin, 1)])
    seen = {begin}
    while queue:
        word, length = queue.popleft()
        for i in range(len(word)):
            for letter in ascii_lowercase:
                if letter == word[i]:
                    continue
                candidate = word[:i] + letter + word[i + 1:]
                if candidate == end:
                    return length + 1
                if candidate in allowed and candidate not in seen:
                    seen.add(candidate)
                    queue.append((candidate, length + 1))
    return 0
