def is_balanced(text: str) -> bool:
    """Return True if the (), [] and {} brackets in text are balanced."""
    raise NotImplementedError
