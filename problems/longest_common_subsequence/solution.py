def lcs_length(a: str, b: str) -> int:
    """Return the length of the longest common subsequence of a and b."""
    # previous[j] holds the LCS length of the prefix of a read so far and b[:j].
    previous = [0] * (len(b) + 1)
    for ch in a:
        current = [0]
        for j, other in enumerate(b, start=1):
            if ch == other:
                current.append(previous[j - 1] + 1)
            else:
                current.append(max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]
