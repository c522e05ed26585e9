def count_inversions(nums: list[int]) -> int:
    """Return the number of index pairs i < j with nums[i] > nums[j]."""
    raise NotImplementedError
