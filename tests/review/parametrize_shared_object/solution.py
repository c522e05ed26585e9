def extend_into(dst, src):
    dst.extend(src)
    return dst
