def max_subarray(nums: list[int]) -> int:
    """Return the largest sum of a non-empty contiguous subarray of nums.

    Raise ValueError if nums is empty.
    """
    if not nums:
        raise ValueError("max_subarray() needs at least one number")
    best = current = nums[0]
    for x in nums[1:]:
        current = max(x, current + x)  # extend the run or start afresh at x
        best = max(best, current)
    return best
