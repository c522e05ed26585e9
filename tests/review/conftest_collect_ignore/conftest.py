collect_ignore = ["test_legacy.py"]
