from collections import deque


def bfs_path(graph: dict, start, goal) -> list | None:
    """Return a path from start to goal with the fewest edges, or None.

    Neighbours are explored in list order, so among equally short paths the
    one discovered first is returned.
    """
    previous = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            path = [goal]
            while path[-1] != start:
                path.append(previous[path[-1]])
            return path[::-1]
        for neighbour in graph.get(node, []):
            if neighbour not in previous:
                previous[neighbour] = node
                queue.append(neighbour)
    return None
