from itertools import groupby


def rle_encode(text: str) -> str:
    """Return text with each run of a character written as <length><character>."""
    return "".join(f"{len(list(run))}{ch}" for ch, run in groupby(text))


def rle_decode(encoded: str) -> str:
    """Expand a string produced by rle_encode back into the original text."""
    parts = []
    count = ""
    for ch in encoded:
        if ch.isdigit():
            count += ch
        elif count:
            parts.append(ch * int(count))
            count = ""
        else:
            raise ValueError(f"character {ch!r} has no run length before it")
    if count:
        raise ValueError("encoded text ends with a run length and no character")
    return "".join(parts)
