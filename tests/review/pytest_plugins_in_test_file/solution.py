def fetch(url):
    return url.upper()
