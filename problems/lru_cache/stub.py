class LRUCache:
    """A cache holding at most `capacity` entries, evicting the least recently used."""

    def __init__(self, capacity: int) -> None:
        """Create an empty cache; capacity is at least 1."""
        raise NotImplementedError

    def get(self, key):
        """Return the value for key and mark it recently used, or None if missing."""
        raise NotImplementedError

    def put(self, key, value) -> None:
        """Store value under key and mark it recently used, evicting if needed."""
        raise NotImplementedError
