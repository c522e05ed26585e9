def extend_into(dst, src):
    dst = list(dst)
    dst.extend(src)
    return dst
