def push(stack, x):
    stack = stack + [x]
