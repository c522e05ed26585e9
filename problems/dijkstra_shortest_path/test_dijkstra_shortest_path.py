import importlib.util
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_solution = _load_solution()
shortest_path = _solution.shortest_path
dijkstra = _solution.dijkstra


@pytest.fixture
def graph():
    return {
        "A": {"B": 4, "C": 2},
        "B": {"C": 5, "D": 10},
        "C": {"E": 3},
        "D": {"F": 11},
        "E": {"D": 4},
        "F": {},
    }


def test_route_to_far_node(graph):
    cost, path = shortest_path(graph, "A", "F")
    assert cost == 20
    assert path == ["A", "C", "E", "D", "F"]


def test_cheaper_route_through_more_nodes(graph):
    assert shortest_path(graph, "A", "D") == (9, ["A", "C", "E", "D"])


def test_start_is_goal(graph):
    assert shortest_path(graph, "B", "B") == (0, ["B"])


def test_unreachable_goal(graph):
    result = shortest_path(graph, "F", "A")
    assert result is None


def test_all_distances_from_a(graph):
    distances = dijkstra(graph, "A")
    assert distances == {"A": 0, "B": 4, "C": 2, "D": 9, "E": 5, "F": 20}


def test_only_reachable_nodes_are_listed(graph):
    assert dijkstra(graph, "E") == {"E": 0, "D": 4, "F": 15}


def test_edges_are_one_way():
    g = {"x": {"y": 1}, "y": {}}
    assert shortest_path(g, "y", "x") is None


def test_goal_only_appears_as_a_neighbour():
    g = {"s": {"t": 10, "a": 1}, "a": {"b": 1}, "b": {"t": 1}}
    cost, path = shortest_path(g, "s", "t")
    assert cost == 3
    assert path == ["s", "a", "b", "t"]
