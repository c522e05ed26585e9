def rle_encode(text: str) -> str:
    """Return text with each run of a character written as <length><character>."""
    raise NotImplementedError


def rle_decode(encoded: str) -> str:
    """Expand a string produced by rle_encode back into the original text."""
    raise NotImplementedError
