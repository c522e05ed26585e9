def log_event(event, sink):
    sink.append(event.upper())
    return len(sink)
