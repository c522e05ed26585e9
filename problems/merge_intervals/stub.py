def merge_intervals(intervals: list[list[int]]) -> list[list[int]]:
    """Merge overlapping or touching closed intervals; return them sorted by start."""
    raise NotImplementedError
