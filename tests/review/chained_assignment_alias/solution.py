def push(stack, x):
    stack.append(x)
