from collections import Counter


def count_pairs(nums: list[int], target: int) -> int:
    """Return how many index pairs i < j have nums[i] + nums[j] == target."""
    seen = Counter()
    pairs = 0
    for x in nums:
        pairs += seen[target - x]  # every earlier partner forms one pair
        seen[x] += 1
    return pairs
