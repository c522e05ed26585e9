def dijkstra(graph: dict, start) -> dict:
    """Return {node: cost of the cheapest route from start} for every reachable node."""
    raise NotImplementedError


def shortest_path(graph: dict, start, goal) -> tuple[float, list] | None:
    """Return (cost, path) for the cheapest route from start to goal, or None."""
    raise NotImplementedError
