class TTLCache:
    """An LRU cache whose entries expire `ttl` time units after they are stored."""

    def __init__(self, capacity: int, ttl: float) -> None:
        """Create an empty cache holding at most capacity live entries."""
        raise NotImplementedError

    def put(self, key, value, now: float) -> None:
        """Store value under key at time now, restarting its ttl."""
        raise NotImplementedError

    def get(self, key, now: float):
        """Return the value for key if it is live at time now, else None."""
        raise NotImplementedError
