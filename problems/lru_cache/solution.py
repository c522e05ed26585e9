from collections import OrderedDict


class LRUCache:
    """A cache holding at most `capacity` entries, evicting the least recently used."""

    def __init__(self, capacity: int) -> None:
        """Create an empty cache; capacity is at least 1."""
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self._entries = OrderedDict()  # oldest first

    def get(self, key):
        """Return the value for key and mark it recently used, or None if missing."""
        if key not in self._entries:
            return None
        self._entries.move_to_end(key)
        return self._entries[key]

    def put(self, key, value) -> None:
        """Store value under key and mark it recently used, evicting if needed."""
        if key in self._entries:
            self._entries.move_to_end(key)
        elif len(self._entries) >= self.capacity:
            self._entries.popitem(last=False)
        self._entries[key] = value
