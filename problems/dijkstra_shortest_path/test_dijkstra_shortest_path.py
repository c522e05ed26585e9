import importlib.util
from pathlib import Path


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_route_to_far_node():
    graph = {
        "A": {"B": 4, "C": 2},
        "B": {"C": 5, "D": 10},
        "C": {"E": 3},
        "D": {"F": 11},
        "E": {"D": 4},
        "F": {},
    }
    result = _load_solution().shortest_path(graph, "A", "F")
    assert result[0] == 20
    assert result[1] == ["A", "C", "E", "D", "F"]


def test_cheaper_route_through_more_nodes():
    graph = {
        "A": {"B": 4, "C": 2},
        "B": {"C": 5, "D": 10},
        "C": {"E": 3},
        "D": {"F": 11},
        "E": {"D": 4},
        "F": {},
    }
    assert _load_solution().shortest_path(graph, "A", "D") == (9, ["A", "C", "E", "D"])


def test_start_is_goal():
    graph = {"A": {"B": 1}, "B": {}}
    assert _load_solution().shortest_path(graph, "B", "B") == (0, ["B"])


def test_unreachable_goal():
    graph = {"A": {"B": 1}, "B": {}, "F": {}}
    result = _load_solution().shortest_path(graph, "F", "A")
    assert result is None


def test_all_distances_from_a():
    graph = {
        "A": {"B": 4, "C": 2},
        "B": {"C": 5, "D": 10},
        "C": {"E": 3},
        "D": {"F": 11},
        "E": {"D": 4},
        "F": {},
    }
    distances = _load_solution().dijkstra(graph, "A")
    assert distances == {"A": 0, "B": 4, "C": 2, "D": 9, "E": 5, "F": 20}


def test_only_reachable_nodes_are_listed():
    graph = {"A": {"E": 5}, "D": {"F": 11}, "E": {"D": 4}, "F": {}}
    distances = _load_solution().dijkstra(graph, "E")
    assert distances == {"E": 0, "D": 4, "F": 15}


def test_edges_are_one_way():
    g = {"x": {"y": 1}, "y": {}}
    assert _load_solution().shortest_path(g, "y", "x") is None


def test_goal_only_appears_as_a_neighbour():
    g = {"s": {"t": 10, "a": 1}, "a": {"b": 1}, "b": {"t": 1}}
    result = _load_solution().shortest_path(g, "s", "t")
    assert result == (3, ["s", "a", "b", "t"])


def test_zero_weight_edges():
    g = {"a": {"b": 0}, "b": {"c": 0}, "c": {}}
    assert _load_solution().dijkstra(g, "a") == {"a": 0, "b": 0, "c": 0}
