import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TTLCache = _load_solution().TTLCache


def test_live_entry_is_returned():
    cache = TTLCache(2, ttl=10)
    cache.put("a", 1, now=0)
    assert cache.get("a", now=5) == 1


def test_expiry_is_inclusive_at_ttl():
    cache = TTLCache(2, ttl=10)
    cache.put("a", 1, now=0)
    assert cache.get("a", now=9) == 1
    assert cache.get("a", now=10) is None


def test_reading_does_not_extend_life():
    cache = TTLCache(2, ttl=10)
    cache.put("a", 1, now=0)
    cache.get("a", now=8)
    assert cache.get("a", now=12) is None


def test_put_again_restarts_ttl():
    cache = TTLCache(2, ttl=10)
    cache.put("a", "old", now=0)
    cache.put("a", "new", now=5)
    assert cache.get("a", now=12) == "new"


def test_least_recently_used_is_evicted():
    cache = TTLCache(2, ttl=100)
    cache.put("a", "A", now=0)
    cache.put("b", "B", now=1)
    cache.get("a", now=2)
    cache.put("c", "C", now=3)
    assert cache.get("b", now=4) is None
    assert cache.get("a", now=4) == "A"


def test_expired_entries_go_before_live_ones():
    cache = TTLCache(2, ttl=5)
    cache.put("a", "A", now=0)
    cache.put("b", "B", now=3)
    cache.get("a", now=4)
    cache.put("c", "C", now=6)
    assert cache.get("b", now=7) == "B"


def test_empty_cache_returns_none():
    cache = TTLCache(2, ttl=10)
    assert cache.get("a", now=0) is None
    assert cache.get("b", now=50) is None


def test_nothing_stored_nothing_returned_later():
    assert TTLCache(1, ttl=5).get("x", now=100) is None