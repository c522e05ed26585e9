import re


def count_words(sentence):
    counts = {}
    for word in re.findall(r"[a-z0-9]+(?:'[a-z0-9]+)*", sentence.lower()):
        counts[word] = counts.get(word, 0) + 1
    return counts
