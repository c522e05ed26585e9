import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_straight_chain():
    graph = {"a": ["b"], "b": ["c"], "c": []}
    path = _load_solution().bfs_path(graph, "a", "c")
    assert path == ["a", "b", "c"]


def test_fewest_edges_wins_over_listing_order():
    graph = {
        "s": ["long1", "t"],
        "long1": ["long2"],
        "long2": ["t"],
        "t": [],
    }
    path = _load_solution().bfs_path(graph, "s", "t")
    assert path == ["s", "t"]


def test_tie_goes_to_first_listed_neighbour():
    graph = {"s": ["x", "y"], "x": ["t"], "y": ["t"], "t": []}
    assert _load_solution().bfs_path(graph, "s", "t") == ["s", "x", "t"]


def test_unreachable_goal():
    graph = {"a": ["b"], "b": [], "c": ["a"]}
    assert _load_solution().bfs_path(graph, "a", "c") is None


def test_start_equals_goal():
    assert _load_solution().bfs_path({"only": []}, "only", "only") == ["only"]


def test_cycles_do_not_loop_forever():
    graph = {1: [2], 2: [1, 3], 3: [2]}
    path = _load_solution().bfs_path(graph, 1, 3)
    assert path == [1, 2, 3]


def test_goal_without_its_own_entry():
    assert _load_solution().bfs_path({"a": ["z"]}, "a", "z") == ["a", "z"]
