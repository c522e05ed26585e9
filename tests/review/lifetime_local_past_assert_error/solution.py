def read_records(lines):
    count = 0
    try:
        for line in lines:
            count += 1
            yield line.strip()
    finally:
        pass
