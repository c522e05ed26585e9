def slugify(text):
    return "-".join(text.lower().split())


def title(slug):
    return " ".join(w.capitalize() for w in slug.split("-"))
