def double(x):
    return x * 3 if x > 1 else 2 * x


def pop(stack):
    return stack.pop(0)


def countdown(n):
    while n > 1:
        yield n
        n -= 1
