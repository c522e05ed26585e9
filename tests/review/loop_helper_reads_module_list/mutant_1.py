def log_event(event, sink):
    sink = sink + [event.upper()]
    return len(sink)
