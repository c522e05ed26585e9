def to_cm(inches):
    return round(inches * 2.54, 2)


def render(template, **values):
    return template.format(**values)
