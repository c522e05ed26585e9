def lcs_length(a: str, b: str) -> int:
    """Return the length of the longest common subsequence of a and b."""
    raise NotImplementedError
