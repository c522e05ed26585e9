import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_get_returns_what_was_put():
    sol = _load_solution()
    cache = sol.LRUCache(2)
    cache.put(1, "a")
    assert cache.get(1) == "a"


def test_missing_key_gives_none():
    sol = _load_solution()
    assert sol.LRUCache(2).get("nope") is None


def test_oldest_entry_is_evicted():
    sol = _load_solution()
    cache = sol.LRUCache(2)
    cache.put(1, "a")
    cache.put(2, "b")
    cache.put(3, "c")
    assert cache.get(1) is None
    assert cache.get(3) == "c"


def test_get_refreshes_recency():
    sol = _load_solution()
    cache = sol.LRUCache(2)
    cache.put(1, "a")
    cache.put(2, "b")
    cache.get(1)
    cache.put(3, "c")
    assert cache.get(2) is None
    assert cache.get(1) == "a"


def test_overwrite_keeps_size():
    sol = _load_solution()
    cache = sol.LRUCache(2)
    cache.put("x", 1)
    cache.put("y", 2)
    cache.put("x", 10)
    assert (cache.get("x"), cache.get("y")) == (10, 2)


def test_new_cache_is_empty():
    cache = _load_solution().LRUCache(1)
    assert cache.get(1) is None


def test_falsy_key_is_missing_too():
    assert _load_solution().LRUCache(3).get(0) is None
