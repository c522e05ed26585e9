def max_subarray(nums: list[int]) -> int:
    """Return the largest sum of a non-empty contiguous subarray of nums.

    Raise ValueError if nums is empty.
    """
    raise NotImplementedError
