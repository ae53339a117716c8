"""A tool that is slow on purpose, for the runner's isolation test."""

import time


def slow_lookup(args):
    time.sleep(args["seconds"])
    return {"slept": args["seconds"]}
