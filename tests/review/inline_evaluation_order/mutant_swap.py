LOG = []
def first():
    LOG.append("first")
    return 1
def second():
    LOG.append("second")
    return 1
