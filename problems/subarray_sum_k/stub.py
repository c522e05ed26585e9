def subarray_sum(nums: list[int], k: int) -> int:
    """Return the number of contiguous, non-empty subarrays of nums summing to k."""
    raise NotImplementedError
