def count_pairs(nums: list[int], target: int) -> int:
    """Return how many index pairs i < j have nums[i] + nums[j] == target."""
    raise NotImplementedError
