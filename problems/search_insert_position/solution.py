def search_insert(nums: list[int], target: int) -> int:
    """Return the index of target in sorted nums, or where it would be inserted."""
    low, high = 0, len(nums)
    while low < high:  # the answer always lies in [low, high]
        middle = (low + high) // 2
        if nums[middle] < target:
            low = middle + 1
        else:
            high = middle
    return low
