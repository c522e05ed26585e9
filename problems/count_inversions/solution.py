def count_inversions(nums: list[int]) -> int:
    """Return the number of index pairs i < j with nums[i] > nums[j]."""
    _, inversions = _sort_and_count(list(nums))
    return inversions


def _sort_and_count(items: list) -> tuple[list, int]:
    """Merge sort items, returning the sorted list and its inversion count."""
    if len(items) <= 1:
        return items, 0
    middle = len(items) // 2
    left, left_count = _sort_and_count(items[:middle])
    right, right_count = _sort_and_count(items[middle:])
    merged = []
    count = left_count + right_count
    i = j = 0
    while i < len(left) and j < len(right):
        if left[i] <= right[j]:  # equal values are not inversions
            merged.append(left[i])
            i += 1
        else:
            merged.append(right[j])
            count += len(left) - i  # right[j] is smaller than all of left[i:]
            j += 1
    merged.extend(left[i:])
    merged.extend(right[j:])
    return merged, count
