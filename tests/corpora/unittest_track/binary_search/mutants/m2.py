def find(search_list, value):
    if value in search_list:
        return search_list.index(value)
    return -1
