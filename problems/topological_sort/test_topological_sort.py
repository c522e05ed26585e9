import importlib.util
from pathlib import Path

import pytest


def _load_solution():
    path = Path(__file__).with_name("solution.py")
    spec = importlib.util.spec_from_file_location("solution", path)
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


topo_sort = _load_solution().topo_sort


@pytest.fixture
def courses():
    return {
        "intro": ["data", "algo"],
        "data": ["db"],
        "algo": ["db", "ml"],
        "db": [],
        "ml": [],
    }


def test_course_order(courses):
    order = topo_sort(courses)
    assert order == ["intro", "algo", "data", "db", "ml"]


def test_each_course_listed_once(courses):
    assert sorted(topo_sort(courses)) == sorted(courses)


def test_empty_graph():
    assert topo_sort({}) == []


def test_independent_nodes_in_sorted_order():
    assert topo_sort({"c": [], "a": [], "b": []}) == ["a", "b", "c"]


def test_node_only_named_as_a_successor():
    assert topo_sort({"b": ["a"]}) == ["b", "a"]


def test_chain():
    order = topo_sort({"a": ["b"], "b": ["c"], "c": []})
    assert order == ["a", "b", "c"]


def test_smallest_ready_node_first():
    graph = {"z": ["m"], "a": ["m"], "m": []}
    assert topo_sort(graph) == ["a", "z", "m"]


def test_diamond():
    order = topo_sort({"top": ["left", "right"], "left": ["bottom"], "right": ["bottom"]})
    assert order == ["top", "left", "right", "bottom"]


def test_two_node_cycle():
    with pytest.raises(ValueError):
        topo_sort({"a": ["b"], "b": ["a"]})


def test_self_loop():
    with pytest.raises(ValueError):
        topo_sort({"a": ["a"]})
