def to_cm(inches):
    return round(inches * 2.5, 2)


def render(template, **values):
    return template.format(**values)
