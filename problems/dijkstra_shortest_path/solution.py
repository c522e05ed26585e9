import heapq
from itertools import count


def _search(graph: dict, start):
    """Run Dijkstra from start; return (distances, predecessors)."""
    dist = {start: 0}
    prev = {}
    tiebreak = count()  # lets the heap order nodes that are not comparable
    heap = [(0, next(tiebreak), start)]
    done = set()
    while heap:
        d, _, node = heapq.heappop(heap)
        if node in done:
            continue
        done.add(node)
        for neighbour, weight in graph.get(node, {}).items():
            candidate = d + weight
            if neighbour not in dist or candidate < dist[neighbour]:
                dist[neighbour] = candidate
                prev[neighbour] = node
                heapq.heappush(heap, (candidate, next(tiebreak), neighbour))
    return dist, prev


def dijkstra(graph: dict, start) -> dict:
    """Return {node: cost of the cheapest route from start} for every reachable node."""
    dist, _ = _search(graph, start)
    return dist


def shortest_path(graph: dict, start, goal) -> tuple[float, list] | None:
    """Return (cost, path) for the cheapest route from start to goal, or None."""
    dist, prev = _search(graph, start)
    if goal not in dist:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(prev[path[-1]])
    path.reverse()
    return dist[goal], path
