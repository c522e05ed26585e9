def bfs_path(graph: dict, start, goal) -> list | None:
    """Return a path from start to goal with the fewest edges, or None.

    Neighbours are explored in list order, so among equally short paths the
    one discovered first is returned.
    """
    raise NotImplementedError
