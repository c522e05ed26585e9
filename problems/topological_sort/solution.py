import heapq


def topo_sort(graph: dict[str, list[str]]) -> list[str]:
    """Return the nodes of graph so that every edge u -> v puts u before v.

    Among the nodes that are ready at any point, the smallest comes first.
    Raise ValueError if the graph has a cycle.
    """
    indegree = {}
    for node, successors in graph.items():
        indegree.setdefault(node, 0)
        for successor in successors:
            indegree[successor] = indegree.get(successor, 0) + 1

    ready = [node for node, degree in indegree.items() if degree == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        node = heapq.heappop(ready)
        order.append(node)
        for successor in graph.get(node, []):
            indegree[successor] -= 1
            if indegree[successor] == 0:
                heapq.heappush(ready, successor)

    if len(order) != len(indegree):
        raise ValueError("the graph has a cycle")
    return order
