def double(x):
    return 2 * x


def pop(stack):
    return stack.pop()


def countdown(n):
    while n > 0:
        yield n
        n -= 1
