from collections import OrderedDict


class TTLCache:
    """An LRU cache whose entries expire `ttl` time units after they are stored."""

    def __init__(self, capacity: int, ttl: float) -> None:
        """Create an empty cache holding at most capacity live entries."""
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.ttl = ttl
        self._entries = OrderedDict()  # key -> (value, inserted_at), oldest use first

    def _expired(self, inserted_at: float, now: float) -> bool:
        return now - inserted_at >= self.ttl

    def _drop_expired(self, now: float) -> None:
        for key in [k for k, (_, t) in self._entries.items() if self._expired(t, now)]:
            del self._entries[key]

    def put(self, key, value, now: float) -> None:
        """Store value under key at time now, restarting its ttl."""
        if key in self._entries:
            del self._entries[key]
        elif len(self._entries) >= self.capacity:
            self._drop_expired(now)
            if len(self._entries) >= self.capacity:
                self._entries.popitem(last=False)
        self._entries[key] = (value, now)

    def get(self, key, now: float):
        """Return the value for key if it is live at time now, else None."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        value, inserted_at = entry
        if self._expired(inserted_at, now):
            del self._entries[key]
            return None
        self._entries.move_to_end(key)
        return value
