from collections import Counter


def subarray_sum(nums: list[int], k: int) -> int:
    """Return the number of contiguous, non-empty subarrays of nums summing to k."""
    seen = Counter({0: 1})  # how many prefixes have each sum
    prefix = 0
    total = 0
    for x in nums:
        prefix += x
        total += seen[prefix - k]  # subarrays ending here that sum to k
        seen[prefix] += 1
    return total
