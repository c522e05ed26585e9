def transform(legacy_data):
    return {letter: score for score, letters in legacy_data.items() for letter in letters}
