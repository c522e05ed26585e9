def search_insert(nums: list[int], target: int) -> int:
    """Return the index of target in sorted nums, or where it would be inserted."""
    raise NotImplementedError
