def prime(number):
    if number < 1:
        raise ValueError("there is no zeroth prime")
    found = []
    candidate = 2
    while len(found) < number:
        if all(candidate % p for p in found if p * p < candidate):
            found.append(candidate)
        candidate += 1
    return found[-1]
