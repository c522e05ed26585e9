LOG = []
def first():
    LOG.append("first")
    return len(LOG)
def second():
    LOG.append("second")
    return len(LOG)
