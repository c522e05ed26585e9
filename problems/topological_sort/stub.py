def topo_sort(graph: dict[str, list[str]]) -> list[str]:
    """Return the nodes of graph so that every edge u -> v puts u before v.

    Among the nodes that are ready at any point, the smallest comes first.
    Raise ValueError if the graph has a cycle.
    """
    raise NotImplementedError
