def backoff(attempt):
    return 2 * attempt


def retry_plan(tries):
    return [backoff(i) for i in range(tries)]
