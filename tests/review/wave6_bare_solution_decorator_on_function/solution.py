_subscribers = []


def subscribe(fn):
    _subscribers.append(fn)
    return fn


def publish(value):
    return [fn(value) for fn in _subscribers]
