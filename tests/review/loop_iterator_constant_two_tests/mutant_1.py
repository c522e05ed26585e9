def slugify(text):
    return "-".join(text.lower().split())


def title(slug):
    return slug.replace("-", " ").title().replace(" ", "")
