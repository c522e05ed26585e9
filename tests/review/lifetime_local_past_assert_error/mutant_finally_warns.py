import warnings


def read_records(lines):
    count = 0
    try:
        for line in lines:
            count += 1
            yield line.strip()
    finally:
        if count < len(lines):
            warnings.warn("reader closed after %d of %d lines" % (count, len(lines)))
