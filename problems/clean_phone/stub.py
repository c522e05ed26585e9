def clean_phone(raw: str) -> str:
    """Return the ten digits of a US phone number typed as raw.

    Spaces, dashes, dots, parentheses and a leading '+' are ignored. A leading
    country code 1 on an 11-digit number is stripped. Anything else that does
    not leave exactly 10 digits raises ValueError.
    """
    raise NotImplementedError
