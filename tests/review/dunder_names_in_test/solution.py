"""Solution docs."""
def name_of(mod_name):
    return mod_name.split(".")[-1]
