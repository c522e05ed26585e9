IGNORED = set(" -.()")


def clean_phone(raw: str) -> str:
    """Return the ten digits of a US phone number typed as raw.

    Spaces, dashes, dots, parentheses and a leading '+' are ignored. A leading
    country code 1 on an 11-digit number is stripped. Anything else that does
    not leave exactly 10 digits raises ValueError.
    """
    text = raw.strip()
    if text.startswith("+"):
        text = text[1:]
    digits = []
    for ch in text:
        if ch.isdigit() and ch.isascii():
            digits.append(ch)
        elif ch not in IGNORED:
            raise ValueError(f"unexpected character {ch!r} in phone number")
    number = "".join(digits)
    if len(number) == 11:
        if number[0] != "1":
            raise ValueError("an 11-digit number must start with the country code 1")
        number = number[1:]
    if len(number) != 10:
        raise ValueError(f"expected 10 digits, got {len(number)}")
    return number
